// The upstream's list operations among the catalogue's passthrough GETs, with the filters the upstream
// documents for each (query parameters besides offset/limit) and a valid sample value per filter.
// Source: the upstream's en-US OpenAPI document as generated into theoxys/asaas-mock-server
// @19c0bfb2eb1a857f722b0953d34d389020710597 `src/generated/operations.ts` (an operation is a list when
// its 200 answer is a `…ListResponse` or it pages by offset/limit; /v3/wallets answers the account's
// wallets as a list) and its enums (`src/generated/enums.ts`); keyed by the catalogue's operationId. list-pages.test.ts checks this table against the catalogue both ways, so a passthrough list
// added to the catalogue fails there until its filters are written here.
//
// `$customer`, `$payment` and `$subscription` in a sample are replaced by a record of the simulated
// upstream account the test builds (so a filter the simulator models selects something real).

export interface UpstreamList {
  /** The upstream's documented filters → a sample value. */
  filters: Readonly<Record<string, string>>;
}

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

export const UPSTREAM_LISTS: Readonly<Record<string, UpstreamList>> = {
  // Not named a list in the catalogue, yet a list upstream (NotificationListResponse, FinancialTransactionListResponse,
  // the wallets list, and the contract effects paged by offset/limit).
  "recuperar-notificacoes-de-um-cliente": { filters: {} },
  "recuperar-extrato": { filters: { startDate: "2026-01-01", finishDate: "2026-12-31", order: "asc" } },
  "recuperar-walletid": { filters: {} },
  "recuperar-efeito-de-contrato-bloqueando-antecipacao-da-cobranca": { filters: {} },
  "listar-cobrancas-com-dados-resumidos": { filters: PAYMENT_FILTERS },
  "listar-documentos-de-uma-cobranca": { filters: {} },
  "listar-parcelamentos": { filters: {} },
  "listar-cobranças-de-um-parcelamento": { filters: { status: "PENDING" } },
  "listar-cobrancas-de-uma-assinatura": { filters: { status: "PENDING" } },
  "listar-notas-fiscais-das-cobrancas-de-uma-assinatura": {
    filters: {
      "effectiveDate[ge]": "2026-01-01",
      "effectiveDate[le]": "2026-12-31",
      externalReference: "pedido-1",
      status: "SCHEDULED",
      customer: "$customer",
    },
  },
  "listar-links-de-pagamentos": { filters: { active: "true", includeDeleted: "false", name: "Plano Pro", externalReference: "link-1" } },
  "listar-imagens-de-um-link-de-pagamentos": { filters: {} },
  "listar-antecipacoes": { filters: { payment: "$payment", installment: "ins_000000000001", status: "PENDING" } },
  "listar-chargebacks": {
    filters: {
      creditCardBrand: "VISA",
      "originDisputeDate[le]": "2026-12-05",
      "originDisputeDate[ge]": "2026-11-01",
      "originTransactionDate[le]": "2026-12-05",
      "originTransactionDate[ge]": "2026-10-10",
      status: "REQUESTED",
    },
  },
  "listar-splits-pagos": { filters: SPLIT_FILTERS },
  "listar-splits-recebidos": { filters: SPLIT_FILTERS },
  "listar-consultas-1": { filters: { startDate: "2026-01-01", endDate: "2026-12-31" } },
  "listar-negativacoes": {
    filters: {
      status: "PENDING",
      type: "CREDIT_BUREAU",
      payment: "$payment",
      requestStartDate: "2026-01-01",
      requestEndDate: "2026-12-31",
    },
  },
  "listar-historico-de-eventos": { filters: {} },
  "listar-pagamentos-recebidos": { filters: {} },
  "listar-cobrancas-disponiveis-para-negativacao": { filters: {} },
  "listar-notas-fiscais": {
    filters: {
      // Spelled with capitals in the upstream's document.
      "effectiveDate[Ge]": "2026-08-03",
      "effectiveDate[Le]": "2026-09-03",
      payment: "$payment",
      installment: "ins_000000000001",
      externalReference: "pedido-1",
      status: "AUTHORIZED",
      customer: "$customer",
    },
  },
  "listar-servicos-municipais": { filters: { description: "1.01" } },
  "listar-codigos-nbs": { filters: { codeDescription: "1.0101.11.00" } },
  "listar-codigos-servicos-federais": { filters: CODE_FILTERS },
  "listar-codigos-de-operadores-de-indicacoes": { filters: { code: "020101", description: "Imóveis" } },
  "listar-codigos-de-classificacoes-tributarias": { filters: { code: "011001", description: "IBS e CBS", taxSituationCode: "011" } },
  "listar-codigos-de-situacoes-tributarias": { filters: { code: "200001", description: "Alíquotas reduzidas" } },
  "listar-chaves": { filters: { status: "ACTIVE", statusList: "ACTIVE,AWAITING_ACTIVATION" } },
  "listar-transacoes": { filters: { status: "DONE", type: "DEBIT", endToEndIdentifier: "E00000000202601151200abcdefghijk" } },
  "listar-autorizacoes-pix-automatico": { filters: { status: "ACTIVE", customerId: "$customer" } },
  "listar-instrucoes-de-pagamento-pix-automatico": {
    filters: { authorizationId: "aut_000000000001", customerId: "$customer", paymentId: "$payment", status: "SCHEDULED" },
  },
  "listar-recorrencias": { filters: { status: "SCHEDULED", value: "100", searchText: "aluguel" } },
  "listar-itens-de-uma-recorrencia": { filters: {} },
  "listar-transferencias": {
    filters: {
      "dateCreated[ge]": "2026-01-01",
      "dateCreated[le]": "2026-12-31",
      "transferDate[ge]": "2026-01-01",
      "transferDate[le]": "2026-12-31",
      type: "PIX",
    },
  },
  "listar-pagamento-de-contas": { filters: { status: "PAID" } },
  "listar-recargas-de-celular": { filters: {} },
  "listar-webhooks": { filters: {} },
  "listar-subcontas": { filters: { cpfCnpj: "52998224725", email: "loja@example.com", name: "Loja", walletId: "wal_000000000001" } },
  "listar-chaves-de-api-de-uma-subconta": { filters: {} },
};

/**
 * Catalogue GETs whose name says "list" but whose upstream answer is one object
 * (`/v3/fiscalInfo/municipalOptions` → FiscalInfoMunicipalOptionsGetResponse).
 */
export const NAMED_LIST_BUT_ONE_OBJECT: ReadonlySet<string> = new Set(["listar-configuracoes-municipais"]);

/**
 * Upstream lists the simulator answers with a single object today: sim/src/generic.ts decides "list"
 * by the catalogue name (`listar…`), and these are not named so. Branch `sim-shapes` fixes the
 * simulator; then these cases fail and this set must be emptied.
 */
export const SIM_ANSWERS_ONE_OBJECT: ReadonlySet<string> = new Set([
  "recuperar-notificacoes-de-um-cliente",
  "recuperar-extrato",
  "recuperar-walletid",
  "recuperar-efeito-de-contrato-bloqueando-antecipacao-da-cobranca",
]);
