// Pix: address keys, static QR codes, the key look-up token bucket, external key look-up, Pix Automático
// authorizations and their payment instructions (created by a payment naming pixAutomaticAuthorizationId).
import { brCodeText, crc16, emvField } from "./brcode";
import { bodyObject, type Handler, type SimContext } from "./context";
import { createIn, find, getIn, insert, listIn, resource, statusIn } from "./engine";
import { asNumber, badRequest, isDateString, isoDate, money, type Json } from "./http";
import { collection, upstreamEnum } from "./records";
import { qrPngBase64 } from "./qr";

/** A static Pix BR Code for a key (point of initiation "11"), CRC included. */
export function staticPixPayload(key: string, amount: number | null, description: string | null, merchantName: string): string {
  const account = emvField("00", "br.gov.bcb.pix") + emvField("01", key) + (description ? emvField("02", description.slice(0, 40)) : "");
  const body =
    emvField("00", "01") +
    emvField("01", "11") +
    emvField("26", account) +
    emvField("52", "0000") +
    emvField("53", "986") +
    (amount ? emvField("54", amount.toFixed(2)) : "") +
    emvField("58", "BR") +
    emvField("59", brCodeText(merchantName, 25)) +
    emvField("60", "SAO PAULO") +
    emvField("62", emvField("05", "***")) +
    "6304";
  return body + crc16(body);
}

const merchant = (ctx: SimContext) => ctx.env.PIX_MERCHANT_NAME ?? "Ponte Sandbox";

export const keys = resource("pixKeys", "PixAddressKeyGetResponse", "Chave Pix não encontrada.");

export const keyHandlers = {
  /** `POST /pix/addressKeys`: the API creates random (EVP) keys. */
  create: (async (ctx) => {
    const body = bodyObject(ctx);
    if (body.type !== "EVP") throw badRequest("invalid_type", "Pela API só é possível criar chaves aleatórias (type EVP).");
    const key = crypto.randomUUID();
    const payload = staticPixPayload(key, null, null, merchant(ctx));
    const encodedImage = await qrPngBase64(payload);
    return insert(ctx, keys, { type: "EVP" }, (_c, k) => {
      Object.assign(k, { key, status: "ACTIVE", canBeDeleted: true, qrCode: { encodedImage, payload } });
    });
  }) as Handler,
  list: listIn(keys),
  get: getIn(keys),
  remove: statusIn(keys, "AWAITING_DELETION", ["ACTIVE", "ERROR"], (_c, k) => {
    k.canBeDeleted = false;
    k.cannotBeDeletedReason = "A chave já está em remoção.";
  }),
};

export const staticQrCodes = resource("pixStaticQrCodes", "PixQrCodeSaveResponse", "QR Code não encontrado.");

export const staticQrHandlers = {
  create: (async (ctx) => {
    const body = bodyObject(ctx);
    const own = [...collection(ctx.account, "pixKeys").values()].find((k) => k.status === "ACTIVE");
    const key = typeof body.addressKey === "string" ? body.addressKey : (own?.key as string | undefined);
    if (!key) throw badRequest("invalid_addressKey", "Informe addressKey ou crie uma chave Pix antes.");
    const value = body.value === undefined || body.value === null ? null : asNumber(body.value);
    if (value !== null && (value === undefined || value <= 0)) throw badRequest("invalid_value", "O valor deve ser maior que zero.");
    const description = typeof body.description === "string" ? body.description : null;
    const payload = staticPixPayload(key, value === null ? null : money(value), description, merchant(ctx));
    const encodedImage = await qrPngBase64(payload);
    return insert(ctx, staticQrCodes, body, (_c, q) => {
      Object.assign(q, { payload, encodedImage, allowsMultiplePayments: body.allowsMultiplePayments !== false, value });
    });
  }) as Handler,
  remove: ((ctx) => {
    const qr = find(ctx, staticQrCodes);
    collection(ctx.account, "pixStaticQrCodes").delete(String(qr.id));
    return { deleted: true, id: qr.id };
  }) as Handler,
};

export const TOKEN_BUCKET_SIZE = 60;

/** `GET /pix/tokenBucket/addressKey`: external key look-ups left in the last minute. */
export const tokenBucket: Handler = ({ account }) => {
  const since = Date.now() - 60_000;
  const used = account.requests.filter(
    (r) => r.path.startsWith("/v3/pix/addressKeys/external") && Date.parse(r.receivedAt) >= since,
  ).length;
  return { availableTokens: Math.max(0, TOKEN_BUCKET_SIZE - used) };
};

const KEY_TYPES = upstreamEnum("PixAddressKeyType");

/** `GET /pix/addressKeys/external?key=&type=`: who owns a key at another institution. */
export const externalKey: Handler = (ctx) => {
  const key = ctx.query.get("key");
  const type = ctx.query.get("type");
  if (!key) throw badRequest("invalid_key", "Informe a chave Pix (key).");
  if (!type || !KEY_TYPES.includes(type)) throw badRequest("invalid_type", `Informe o tipo da chave (${KEY_TYPES.join(", ")}).`);
  if ((tokenBucket(ctx) as Json).availableTokens === 0) throw badRequest("rate_limited", "Limite de consultas de chaves atingido.");
  return {
    key,
    type,
    ownerName: "Titular Simulado",
    cpfCnpj: "***.456.789-**",
    bank: { ispb: "19540550", code: "461", name: "Asaas IP S.A." },
  };
};

export const authorizations = resource(
  "pixAutomaticAuthorizations",
  "PixReceiverAutomaticRecurringAuthorizationGetResponse",
  "Autorização não encontrada.",
);
const FREQUENCIES = new Set(["WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUALLY", "ANNUALLY"]);

export const authorizationHandlers = {
  create: createIn(authorizations, ["customerId", "frequency", "contractId", "startDate"], (ctx, a, body) => {
    const customer = ctx.account.customers.get(String(body.customerId));
    if (!customer || customer.deleted) throw badRequest("invalid_customerId", "Cliente inexistente ou removido.");
    if (!FREQUENCIES.has(String(body.frequency))) throw badRequest("invalid_frequency", "Periodicidade inválida.");
    if (!isDateString(body.startDate)) throw badRequest("invalid_startDate", "Data de início inválida (YYYY-MM-DD).");
    const payload = staticPixPayload(String(a.id), null, "Pix Automatico", merchant(ctx));
    Object.assign(a, { status: "CREATED", originType: "PAYMENT_INSTRUCTION", payload });
  }),
  list: listIn(authorizations),
  get: getIn(authorizations),
  cancel: statusIn(authorizations, "CANCELLED", ["CREATED", "ACTIVE"]),
};

export const instructions = resource(
  "pixAutomaticInstructions",
  "PixAutomaticRecurringPaymentInstructionGetResponse",
  "Instrução de pagamento não encontrada.",
);

/** Refuses a payment naming a missing or cancelled Pix Automático authorization (before it is stored). */
export function checkAuthorization(ctx: SimContext, authorizationId: unknown): void {
  if (authorizationId === undefined || authorizationId === null) return;
  const authorization =
    typeof authorizationId === "string" ? collection(ctx.account, "pixAutomaticAuthorizations").get(authorizationId) : undefined;
  if (!authorization || authorization.status === "CANCELLED") {
    throw badRequest("invalid_pixAutomaticAuthorizationId", "Autorização Pix Automático inexistente ou cancelada.");
  }
}

/** A payment naming a Pix Automático authorization gets a payment instruction (SCHEDULED for its due date). */
export function instructPayment(ctx: SimContext, payment: Json, authorizationId: unknown): void {
  if (typeof authorizationId !== "string") return;
  insert(ctx, instructions, {
    authorizationId,
    customerId: payment.customer,
    paymentId: payment.id,
    status: "SCHEDULED",
    dueDate: payment.dueDate,
    value: payment.value,
  });
}

export const instructionHandlers = {
  list: listIn(instructions),
  get: getIn(instructions),
  /** `POST …/retries`: a refused or cancelled instruction is scheduled again (answered 201). */
  retry: ((ctx) => {
    const instruction = find(ctx, instructions);
    if (instruction.status !== "REFUSED" && instruction.status !== "CANCELLED" && instruction.status !== "SCHEDULED") {
      throw badRequest("invalid_action", "Só é possível retentar instruções recusadas, canceladas ou agendadas.");
    }
    const dueDate = bodyObject(ctx).dueDate;
    if (dueDate !== undefined && (!isDateString(dueDate) || dueDate < isoDate())) throw badRequest("invalid_dueDate", "Data inválida.");
    Object.assign(instruction, { status: "SCHEDULED", dueDate: dueDate ?? instruction.dueDate });
    return instruction;
  }) as Handler,
};
