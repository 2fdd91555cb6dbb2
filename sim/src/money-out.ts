// Money leaving the account: transfers (Pix key, bank account, or another upstream account by walletId, with
// optional Pix recurrence), bill payments, mobile top-ups, and paying or decoding a Pix QR code.
import { brCodeCrcValid, brCodeText, parseEmv } from "./brcode";
import { bodyObject, type Handler } from "./context";
import { type Resource, createIn, find, formOrBody, getIn, insert, listIn, requireFields, resource, statusIn } from "./engine";
import { addDays, addMonths, asNumber, badRequest, isDateString, isObject, isoDate, money, randomDigits, type Json } from "./http";
import { collection } from "./records";

export const transfers = resource("transfers", "TransferGetResponse", "Transferência não encontrada.");
const internalTransfers: Resource = { ...transfers, dto: "TransferSaveInternalTransferResponse" };
export const recurrings = resource("pixRecurrings", "PixRecurringTransactionGetResponse", "Recorrência não encontrada.");

function positiveValue(v: unknown): number {
  const value = asNumber(v);
  if (value === undefined || value <= 0) throw badRequest("invalid_value", "O valor deve ser maior que zero.");
  return money(value);
}

function scheduleOf(v: unknown): string | null {
  if (v === undefined || v === null || v === "") return null;
  if (!isDateString(v) || v < isoDate())
    throw badRequest("invalid_scheduleDate", "A data de agendamento deve ser hoje ou futura (YYYY-MM-DD).");
  return v;
}

const RECURRENCE_LIMIT = { WEEKLY: 51, MONTHLY: 11 } as const;

/** `POST /transfers`: to another upstream account (walletId: done at once), a Pix key, or a bank account (TED/Pix). */
export const createTransfer: Handler = (ctx) => {
  const body = bodyObject(ctx);
  const value = positiveValue(body.value);
  if (typeof body.walletId === "string" && body.walletId !== "") {
    return insert(ctx, internalTransfers, body, (_c, t) => {
      Object.assign(t, {
        type: "INTERNAL",
        operationType: "INTERNAL",
        value,
        netValue: value,
        transferFee: 0,
        status: "DONE",
        effectiveDate: isoDate(),
      });
      t.account = { name: "Conta Asaas", cpfCnpj: null, agency: "0001", account: randomDigits(6), accountDigit: randomDigits(1) };
    });
  }
  const bank = isObject(body.bankAccount) ? body.bankAccount : undefined;
  const pixKey = typeof body.pixAddressKey === "string" && body.pixAddressKey !== "" ? body.pixAddressKey : undefined;
  if (!bank && !pixKey) throw badRequest("invalid_action", "Informe pixAddressKey ou bankAccount.");
  if (bank) requireFields(bank, ["ownerName", "cpfCnpj", "agency", "account", "accountDigit"]);
  const scheduleDate = scheduleOf(body.scheduleDate);
  const kind = pixKey || body.operationType === "PIX" ? "PIX" : "TED";
  const recurring = isObject(body.recurring) ? body.recurring : undefined;
  return insert(ctx, transfers, body, (c, t) => {
    Object.assign(t, {
      type: kind,
      operationType: kind,
      value,
      netValue: value,
      transferFee: kind === "TED" ? 5 : 0,
      status: "PENDING",
      scheduleDate: scheduleDate ?? isoDate(),
      authorized: true,
      bankAccount: {
        bank: bank && isObject(bank.bank) ? { ispb: null, code: String(bank.bank.code ?? ""), name: null } : null,
        accountName: bank?.accountName ?? null,
        ownerName: bank?.ownerName ?? null,
        cpfCnpj: bank?.cpfCnpj ?? null,
        agency: bank?.agency ?? null,
        agencyDigit: null,
        account: bank?.account ?? null,
        accountDigit: bank?.accountDigit ?? null,
        pixAddressKey: pixKey ?? null,
      },
    });
    if (recurring) {
      if (kind !== "PIX") throw badRequest("invalid_recurring", "Recorrência disponível apenas para transferências Pix.");
      const frequency = recurring.frequency as keyof typeof RECURRENCE_LIMIT;
      const quantity = asNumber(recurring.quantity);
      if (
        !(frequency in RECURRENCE_LIMIT) ||
        quantity === undefined ||
        !Number.isInteger(quantity) ||
        quantity < 1 ||
        quantity > RECURRENCE_LIMIT[frequency]
      ) {
        throw badRequest("invalid_recurring", "Recorrência inválida: frequency WEEKLY (até 51) ou MONTHLY (até 11) e quantity.");
      }
      const start = String(t.scheduleDate);
      const rec = insert(c, recurrings, {
        status: "SCHEDULED",
        origin: "TRANSFER",
        value,
        frequency,
        quantity,
        startDate: start,
        finishDate: frequency === "WEEKLY" ? addDays(start, 7 * quantity) : addMonths(start, quantity),
        canBeCancelled: true,
        targetInfo: { name: bank?.ownerName ?? pixKey, cpfCnpj: bank?.cpfCnpj ?? "", pixAddressKey: pixKey ?? null },
        externalReference: body.externalReference ?? null,
      });
      t.recurring = rec.id;
      const items = collection(c.account, `pixRecurringItems:${String(rec.id)}`);
      for (let n = 1; n <= quantity; n++) {
        const id = crypto.randomUUID();
        const scheduledDate = frequency === "WEEKLY" ? addDays(start, 7 * n) : addMonths(start, n);
        items.set(id, {
          id,
          status: "SCHEDULED",
          scheduledDate,
          value,
          recurrenceNumber: n,
          quantity,
          canBeCancelled: true,
          refusalReason: null,
        });
      }
    }
  });
};

export const transferHandlers = {
  list: listIn(transfers),
  get: getIn(transfers),
  cancel: statusIn(transfers, "CANCELLED", ["PENDING"]),
};

export const recurringHandlers = {
  list: listIn(recurrings),
  get: getIn(recurrings),
  cancel: statusIn(recurrings, "CANCELLED", ["SCHEDULED", "PENDING"], (ctx, rec) => {
    rec.canBeCancelled = false;
    for (const item of collection(ctx.account, `pixRecurringItems:${String(rec.id)}`).values()) {
      if (item.status === "SCHEDULED") Object.assign(item, { status: "CANCELLED", canBeCancelled: false });
    }
  }),
  items: listIn({
    ...recurrings,
    dto: "PixRecurringTransactionGetItemResponse",
    key: (ctx) => `pixRecurringItems:${ctx.params.id}`,
    parent: (ctx) => void find(ctx, recurrings),
  }),
  cancelItem: ((ctx) => {
    for (const [name, items] of ctx.account.records) {
      const item = name.startsWith("pixRecurringItems:") ? items.get(ctx.params.id ?? "") : undefined;
      if (!item) continue;
      if (item.status !== "SCHEDULED") throw badRequest("invalid_action", "Só é possível cancelar itens agendados.");
      Object.assign(item, { status: "CANCELLED", canBeCancelled: false });
      return item;
    }
    return find(ctx, { ...recurrings, key: () => "none", missing: "Item de recorrência não encontrado." });
  }) as Handler,
};

/** The amount in a 47-digit boleto line (its last 10 digits, in cents), or undefined. */
function lineValue(line: string): number | undefined {
  const digits = line.replace(/\D/g, "");
  if (digits.length !== 47 && digits.length !== 48) return undefined;
  return Number(digits.slice(-10)) / 100;
}

export const bills = resource("bills", "BillGetResponse", "Pagamento de conta não encontrado.");

export const billHandlers = {
  create: createIn(bills, ["identificationField"], (_ctx, bill, body) => {
    const value = body.value === undefined ? lineValue(String(body.identificationField)) : asNumber(body.value);
    if (value === undefined || value <= 0)
      throw badRequest("invalid_identificationField", "Linha digitável inválida ou sem valor; informe value.");
    Object.assign(bill, {
      value: money(value),
      status: "PENDING",
      scheduleDate: scheduleOf(body.scheduleDate) ?? isoDate(),
      fee: 0,
      canBeCancelled: true,
    });
  }),
  list: listIn(bills),
  get: getIn(bills),
  cancel: statusIn(bills, "CANCELLED", ["PENDING"], (_c, bill) => {
    bill.canBeCancelled = false;
  }),
  simulate: ((ctx) => {
    const body = bodyObject(ctx);
    const line = String(body.identificationField ?? body.barCode ?? "");
    const value = lineValue(line);
    if (value === undefined) throw badRequest("invalid_identificationField", "Informe uma linha digitável válida.");
    return {
      minimumScheduleDate: isoDate(),
      fee: 0,
      bankSlipInfo: { identificationField: line.replace(/\D/g, ""), value, dueDate: null, companyName: null },
    };
  }) as Handler,
};

export const recharges = resource("mobilePhoneRecharges", "MobilePhoneRechargeGetResponse", "Recarga não encontrada.");
const RECHARGE_VALUES = [15, 20, 30, 50, 100];

function operatorOf(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 10 || digits.length > 11) throw badRequest("invalid_phoneNumber", "Número de celular inválido (DDD + número).");
  return ["Vivo", "Claro", "TIM", "Oi"][Number(digits.at(-1)) % 4] ?? "Vivo";
}

export const rechargeHandlers = {
  create: createIn(recharges, ["phoneNumber", "value"], (_ctx, r, body) => {
    r.operatorName = operatorOf(String(body.phoneNumber));
    if (!RECHARGE_VALUES.includes(positiveValue(body.value)))
      throw badRequest("invalid_value", `Valores de recarga: ${RECHARGE_VALUES.join(", ")}.`);
    Object.assign(r, { status: "PENDING", canBeCancelled: true });
  }),
  list: listIn(recharges),
  get: getIn(recharges),
  cancel: statusIn(recharges, "CANCELLED", ["PENDING"], (_c, r) => {
    r.canBeCancelled = false;
  }),
  provider: ((ctx) => ({
    name: operatorOf(ctx.params.phoneNumber ?? ""),
    values: RECHARGE_VALUES.map((v) => ({ name: `R$ ${v},00`, minValue: v, maxValue: v })),
  })) as Handler,
};

/** Decodes a Pix BR Code (copy-and-paste payload); 400 when it is not one. */
export function decodeBrCode(payload: unknown): Json {
  if (typeof payload !== "string" || !brCodeCrcValid(payload)) throw badRequest("invalid_payload", "O QR Code Pix informado é inválido.");
  const fields = parseEmv(payload);
  const account = parseEmv(fields.get("26") ?? "");
  const value = money(Number(fields.get("54") ?? 0));
  return {
    payload,
    type: fields.get("01") === "12" ? "DYNAMIC" : "STATIC",
    transactionOriginType: null,
    pixKey: account.get("01") ?? null,
    conciliationIdentifier: parseEmv(fields.get("62") ?? "").get("05") ?? null,
    endToEndIdentifier: null,
    dueDate: null,
    expirationDate: null,
    value,
    totalValue: value,
    canBePaid: true,
    receiver: { ispb: null, name: brCodeText(fields.get("59") ?? "", 25), cpfCnpj: "" },
  };
}

export const pixTransactions = resource("pixTransactions", "PixTransactionGetResponse", "Transação Pix não encontrada.");

export const pixTransactionHandlers = {
  decode: ((ctx) => decodeBrCode(bodyObject(ctx).payload)) as Handler,
  /** `POST /pix/qrCodes/pay`: pays a QR code now (DONE) or on scheduleDate (SCHEDULED). */
  pay: ((ctx) => {
    const body = bodyObject(ctx);
    const qr = isObject(body.qrCode) ? body.qrCode : {};
    const decoded = decodeBrCode(qr.payload);
    const value = body.value === undefined ? Number(decoded.value) : positiveValue(body.value);
    if (value <= 0) throw badRequest("invalid_value", "Informe o valor a pagar.");
    const scheduledDate = scheduleOf(body.scheduleDate);
    const scheduled = scheduledDate !== null && scheduledDate > isoDate();
    return insert(ctx, pixTransactions, formOrBody(ctx), (_c, t) => {
      Object.assign(t, {
        value,
        type: "DEBIT",
        status: scheduled ? "SCHEDULED" : "DONE",
        scheduledDate,
        effectiveDate: scheduled ? null : t.dateCreated,
        endToEndIdentifier: scheduled ? null : `E${randomDigits(31)}`,
        conciliationIdentifier: decoded.conciliationIdentifier,
        canBeCanceled: scheduled,
        description: body.description ?? null,
      });
    });
  }) as Handler,
  list: listIn(pixTransactions),
  get: getIn(pixTransactions),
  cancel: statusIn(pixTransactions, "CANCELLED", ["SCHEDULED"], (_c, t) => {
    t.canBeCanceled = false;
  }),
};
