// Sample values for the upstream's documented list filters, for the generated list test. Which
// catalogue passthrough GETs the upstream answers with a list, and the filters it documents for each
// (query parameters besides offset/limit), live in one place: the generated src/compat/upstream-shapes.ts
// (`upstreamShape(operationId).response === "list"`, `.filters`); list-operations.ts derives the lists from
// it, and list-pages.test.ts checks that every documented filter has a sample here and that no sample is stale.
// Values follow the upstream's enums (theoxys/asaas-mock-server @19c0bfb2eb1a857f722b0953d34d389020710597
// `src/generated/enums.ts`).
//
// `$customer`, `$payment` and `$subscription` in a sample are replaced by a record of the simulated
// upstream account the test builds (so a filter the simulator models selects something real).

const PAYMENT_FILTERS = {
  customer: "$customer",
  customerGroupName: "Grupo A",
  billingType: "BOLETO",
  status: "PENDING",
  subscription: "$subscription",
  installment: "ins_000000000001",
  externalReference: "pedido-1",
  paymentDate: "2026-01-15",
  invoiceStatus: "SCHEDULED",
  estimatedCreditDate: "2026-01-15",
  pixQrCodeId: "QRCODE0001",
  anticipated: "false",
  anticipable: "true",
  "dateCreated[ge]": "2026-01-01",
  "dateCreated[le]": "2026-12-31",
  "paymentDate[ge]": "2026-01-01",
  "paymentDate[le]": "2026-12-31",
  "estimatedCreditDate[ge]": "2026-01-01",
  "estimatedCreditDate[le]": "2026-12-31",
  "dueDate[ge]": "2026-01-01",
  "dueDate[le]": "2026-12-31",
  user: "financeiro@example.com",
  checkoutSession: "chk_000000000001",
} as const;

const SPLIT_FILTERS = {
  paymentId: "$payment",
  status: "DONE",
  "paymentConfirmedDate[ge]": "2026-01-01",
  "paymentConfirmedDate[le]": "2026-12-31",
  "creditDate[ge]": "2026-01-01",
  "creditDate[le]": "2026-12-31",
} as const;

const CODE_FILTERS = { code: "040801", description: "Terapia ocupacional" } as const;

/** operationId → documented filter → a sample value (lists without filters are not here). */
export const FILTER_SAMPLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "recuperar-extrato": { startDate: "2026-01-01", finishDate: "2026-12-31", order: "asc" },
  "listar-cobrancas-com-dados-resumidos": PAYMENT_FILTERS,
  "listar-cobranças-de-um-parcelamento": { status: "PENDING" },
  "listar-cobrancas-de-uma-assinatura": { status: "PENDING" },
  "listar-notas-fiscais-das-cobrancas-de-uma-assinatura": {
    "effectiveDate[ge]": "2026-01-01",
    "effectiveDate[le]": "2026-12-31",
    externalReference: "pedido-1",
    status: "SCHEDULED",
    customer: "$customer",
  },
  "listar-links-de-pagamentos": { active: "true", includeDeleted: "false", name: "Plano Pro", externalReference: "link-1" },
  "listar-antecipacoes": { payment: "$payment", installment: "ins_000000000001", status: "PENDING" },
  "listar-chargebacks": {
    creditCardBrand: "VISA",
    "originDisputeDate[le]": "2026-12-05",
    "originDisputeDate[ge]": "2026-11-01",
    "originTransactionDate[le]": "2026-12-05",
    "originTransactionDate[ge]": "2026-10-10",
    status: "REQUESTED",
  },
  "listar-splits-pagos": SPLIT_FILTERS,
  "listar-splits-recebidos": SPLIT_FILTERS,
  "listar-consultas-1": { startDate: "2026-01-01", endDate: "2026-12-31" },
  "listar-negativacoes": {
    status: "PENDING",
    type: "CREDIT_BUREAU",
    payment: "$payment",
    requestStartDate: "2026-01-01",
    requestEndDate: "2026-12-31",
  },
  "listar-notas-fiscais": {
    // The upstream's en-US document spells these with capitals (`effectiveDate[Ge]`); the generated shapes use its pt-BR spelling.
    "effectiveDate[ge]": "2026-08-03",
    "effectiveDate[le]": "2026-09-03",
    payment: "$payment",
    installment: "ins_000000000001",
    externalReference: "pedido-1",
    status: "AUTHORIZED",
    customer: "$customer",
  },
  "listar-servicos-municipais": { description: "1.01" },
  "listar-codigos-nbs": { codeDescription: "1.0101.11.00" },
  "listar-codigos-servicos-federais": CODE_FILTERS,
  "listar-codigos-de-operadores-de-indicacoes": { code: "020101", description: "Imóveis" },
  "listar-codigos-de-classificacoes-tributarias": { code: "011001", description: "IBS e CBS", taxSituationCode: "011" },
  "listar-codigos-de-situacoes-tributarias": { code: "200001", description: "Alíquotas reduzidas" },
  "listar-chaves": { status: "ACTIVE", statusList: "ACTIVE,AWAITING_ACTIVATION" },
  "listar-transacoes": { status: "DONE", type: "DEBIT", endToEndIdentifier: "E00000000202601151200abcdefghijk" },
  "listar-autorizacoes-pix-automatico": { status: "ACTIVE", customerId: "$customer" },
  "listar-instrucoes-de-pagamento-pix-automatico": {
    authorizationId: "aut_000000000001",
    customerId: "$customer",
    paymentId: "$payment",
    status: "SCHEDULED",
  },
  "listar-recorrencias": { status: "SCHEDULED", value: "100", searchText: "aluguel" },
  "listar-transferencias": {
    "dateCreated[ge]": "2026-01-01",
    "dateCreated[le]": "2026-12-31",
    "transferDate[ge]": "2026-01-01",
    "transferDate[le]": "2026-12-31",
    type: "PIX",
  },
  "listar-pagamento-de-contas": { status: "PAID" },
  "listar-subcontas": { cpfCnpj: "52998224725", email: "loja@example.com", name: "Loja", walletId: "wal_000000000001" },
};

/**
 * Catalogue GETs whose name says "list" but whose upstream answer is one object
 * (`/v3/fiscalInfo/municipalOptions` → FiscalInfoMunicipalOptionsGetResponse).
 */
export const NAMED_LIST_BUT_ONE_OBJECT: ReadonlySet<string> = new Set(["listar-configuracoes-municipais"]);

/**
 * The one upstream list whose `offset` is a page number (0, 1, 2…), not a position: the municipal services
 * (asaas-facts.md (a), https://docs.asaas.com/docs/listing-and-pagination). Its answer's `offset` is the position.
 */
export const OFFSET_IS_PAGE_NUMBER: ReadonlySet<string> = new Set(["listar-servicos-municipais"]);
