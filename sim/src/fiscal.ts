// Service invoices (notas fiscais): scheduled for a payment, an installment plan or a customer, authorized
// (issued) or cancelled; a subscription's invoice settings; the account's fiscal info and the municipal and
// federal code tables (small fixed reference lists, filtered by code/description).
import { bodyObject, type Handler, type SimContext } from "./context";
import { createIn, formOrBody, getIn, listIn, listRecords, resource, singleton, statusIn, updateIn } from "./engine";
import { badRequest, isDateString, listBody, notFound, randomDigits, readPage, type Json } from "./http";
import { findPayment } from "./payment-records";
import { applyFields, blankRecord, collection } from "./records";
import { findSubscription } from "./subscriptions";

export const invoices = resource("invoices", "InvoiceGetResponse", "Nota fiscal não encontrada.");

export const invoiceHandlers = {
  schedule: createIn(invoices, ["serviceDescription", "observations", "value", "effectiveDate"], (ctx, inv, body) => {
    if (!isDateString(body.effectiveDate)) throw badRequest("invalid_effectiveDate", "Data de emissão inválida (YYYY-MM-DD).");
    if (!(Number(inv.value) > 0)) throw badRequest("invalid_value", "O valor deve ser maior que zero.");
    if (typeof body.payment === "string") inv.customer = findPayment(ctx.account, body.payment).customer;
    else if (typeof body.installment === "string") {
      const plan = ctx.account.installments.get(body.installment);
      if (!plan) throw badRequest("invalid_installment", "Parcelamento inexistente.");
      inv.customer = plan.customer;
    } else if (typeof body.customer !== "string" || !ctx.account.customers.has(body.customer)) {
      throw badRequest("invalid_customer", "Informe payment, installment ou customer.");
    }
    if (!body.municipalServiceId && !body.municipalServiceCode)
      throw badRequest("invalid_municipalService", "Informe municipalServiceId ou municipalServiceCode.");
    Object.assign(inv, { status: "SCHEDULED", type: "NFS-e" });
  }),
  list: listIn(invoices),
  get: getIn(invoices),
  update: updateIn(invoices, (_c, inv) => {
    if (inv.status !== "SCHEDULED") throw badRequest("invalid_action", "Só notas agendadas podem ser alteradas.");
  }),
  authorize: statusIn(invoices, "AUTHORIZED", ["SCHEDULED", "ERROR"], (ctx, inv) => {
    Object.assign(inv, {
      number: randomDigits(6),
      validationCode: randomDigits(8),
      rpsSerie: "E",
      rpsNumber: randomDigits(4),
      pdfUrl: `${ctx.origin}/notas/${String(inv.id)}.pdf`,
      xmlUrl: `${ctx.origin}/notas/${String(inv.id)}.xml`,
    });
  }),
  cancel: statusIn(invoices, "CANCELED", ["SCHEDULED", "AUTHORIZED"]),
  /** `GET /subscriptions/{id}/invoices`: invoices of the subscription's payments. */
  ofSubscription: ((ctx) => {
    const sub = findSubscription(ctx.account, ctx.params.id);
    const mine = new Set([...ctx.account.payments.values()].filter((p) => p.subscription === sub.id).map((p) => p.id));
    return listRecords(
      ctx,
      invoices.dto,
      [...collection(ctx.account, "invoices").values()].filter((i) => mine.has(String(i.payment))),
    );
  }) as Handler,
};

// ── a subscription's invoice settings ────────────────────────────────────────
const SETTINGS = "SubscriptionInvoiceConfigGetResponse";
const settingsKey = (ctx: SimContext) => `invoiceSettings:${findSubscription(ctx.account, ctx.params.id).id}`;

function existingSettings(ctx: SimContext): Json {
  const s = ctx.account.singletons.get(settingsKey(ctx));
  if (!s) throw notFound("A assinatura não possui configuração de notas fiscais.");
  return s;
}

export const invoiceSettingsHandlers = {
  create: ((ctx) => {
    const key = settingsKey(ctx);
    const body = bodyObject(ctx);
    if (!body.municipalServiceId && !body.municipalServiceCode)
      throw badRequest("invalid_municipalService", "Informe municipalServiceId ou municipalServiceCode.");
    const settings = blankRecord(SETTINGS, { ...body, status: "ACTIVE" });
    ctx.account.singletons.set(key, settings);
    return settings;
  }) as Handler,
  get: ((ctx) => existingSettings(ctx)) as Handler,
  update: ((ctx) => {
    const settings = existingSettings(ctx);
    applyFields(SETTINGS, settings, bodyObject(ctx), ["status"]);
    return settings;
  }) as Handler,
  remove: ((ctx) => {
    existingSettings(ctx);
    ctx.account.singletons.delete(settingsKey(ctx));
    return { deleted: true, id: ctx.params.id };
  }) as Handler,
};

// ── fiscal info and code tables ──────────────────────────────────────────────
export const fiscalInfo = singleton(
  "FiscalInfoGetResponse",
  { simplesNacional: true, email: "fiscal@ponte-sim.invalid", rpsSerie: "E", rpsNumber: 1, loteNumber: 1 },
  () => "fiscalInfo",
);

export const saveFiscalInfo: Handler = (ctx) => {
  const body = formOrBody(ctx);
  if (body.email === undefined && !ctx.account.singletons.has("fiscalInfo"))
    throw badRequest("invalid_email", "Informe o email para as notas fiscais.");
  return fiscalInfo.save(ctx);
};

export const nationalPortal: Handler = (ctx) => {
  const v = bodyObject(ctx).useNationalPortal;
  if (typeof v !== "boolean") throw badRequest("invalid_useNationalPortal", "useNationalPortal deve ser booleano.");
  ctx.account.singletons.set("fiscalInfo/nationalPortal", { useNationalPortal: v });
  return { useNationalPortal: v };
};

export const municipalOptions: Handler = () => ({
  authenticationType: "CERTIFICATE",
  supportsCancellation: true,
  usesSpecialTaxRegimes: true,
  usesServiceListItem: true,
  specialTaxRegimesList: [
    { label: "Microempresa municipal", value: "1" },
    { label: "Estimativa", value: "2" },
  ],
  municipalInscriptionHelp: null,
  specialTaxRegimeHelp: null,
  serviceListItemHelp: null,
  digitalCertificatedHelp: null,
  accessTokenHelp: null,
  municipalServiceCodeHelp: null,
});

const MUNICIPAL_SERVICES = [
  { id: "101", description: "1.01 - Análise e desenvolvimento de sistemas", issTax: 2 },
  { id: "102", description: "1.02 - Programação", issTax: 2 },
  { id: "1703", description: "17.03 - Planejamento, coordenação, programação ou organização técnica", issTax: 5 },
];
const TABLES: Record<string, { code: string; description: string; taxSituationCode?: string }[]> = {
  nbsCodes: [
    { code: "1.0101.11.00", description: "Serviços de construção de edificações residenciais de um e dois pavimentos" },
    { code: "1.1502.10.00", description: "Serviços de desenvolvimento de software" },
  ],
  federalServiceCodes: [
    { code: "010101", description: "Análise e desenvolvimento de sistemas" },
    { code: "040801", description: "Terapia ocupacional" },
  ],
  operationIndicatorCodes: [
    { code: "020101", description: "Operações com bens imóveis, bens móveis e direitos" },
    { code: "030101", description: "Prestação de serviços" },
  ],
  taxClassificationCodes: [
    { code: "000001", description: "Situações tributadas integralmente pelo IBS e CBS", taxSituationCode: "000" },
    { code: "011001", description: "Situações tributadas com alíquota reduzida", taxSituationCode: "011" },
  ],
  taxSituationCodes: [
    { code: "000", description: "Tributação integral" },
    { code: "200001", description: "Tributação com alíquotas uniformes reduzidas" },
  ],
};

const contains = (v: unknown, q: string | null) => !q || String(v).toLowerCase().includes(q.toLowerCase());

export const municipalServices: Handler = ({ query }) => {
  // This list's offset is a page number (asaas-facts.md); limit is the page size.
  const rows = MUNICIPAL_SERVICES.filter((s) => contains(s.description, query.get("description")));
  const page = readPage(query);
  return listBody(rows, { limit: page.limit, offset: page.offset * page.limit });
};

export const codeTable =
  (table: keyof typeof TABLES): Handler =>
  ({ query }) => {
    const rows = (TABLES[table] ?? []).filter(
      (r) =>
        contains(r.code, query.get("code")) &&
        contains(r.description, query.get("description") ?? query.get("codeDescription")) &&
        contains(r.taxSituationCode ?? "", query.get("taxSituationCode")),
    );
    return listBody(rows, readPage(query));
  };
