// Walks the whole catalogue on the simulator: every one of the 208 operations (187 passthrough, 21 native) is
// called with a valid request, in an order that builds real state (each answer feeds later requests), and its
// answer is checked against the operation's upstream shape (src/compat/upstream-shapes.ts via shape-check.ts).
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { upstreamShape } from "../../src/compat/upstream-shapes";
import { CATALOGUE_HANDLERS } from "../src/catalogue-table";
import { checkAnswer } from "../src/shape-check";
import { account, CARD, CUSTOMER, dateIn, fetchSim, HOLDER } from "./helpers";

type Json = Record<string, unknown>;
type Params = Record<string, string>;

const BOLETO_LINE = "23793381286000782713695000063305975520000015000";

function file(name: string, type: string, text = "conteudo"): File {
  return new File([text], name, { type });
}

function form(fields: Record<string, string | File>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe("every catalogue operation on the simulator", () => {
  it("has a handler for each of the 208 operations (none falls through), and none for anything else", () => {
    const missing = CATALOGUE.filter((op) => !CATALOGUE_HANDLERS[op.operationId]);
    expect(missing.map((op) => op.operationId)).toEqual([]);
    expect(Object.keys(CATALOGUE_HANDLERS).filter((id) => !CATALOGUE.some((op) => op.operationId === id))).toEqual([]);
  });

  it("answers each with its documented shape and real state", async () => {
    const sim = account();
    const covered = new Set<string>();

    async function call(operationId: string, params: Params = {}, body?: Json | FormData, query = "", status = 200): Promise<Json> {
      const op = CATALOGUE.find((o) => o.operationId === operationId);
      if (!op) throw new Error(`unknown operation ${operationId}`);
      const path = op.upstreamPath.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = params[name];
        if (!value) throw new Error(`${operationId}: no ${name}`);
        return encodeURIComponent(value);
      });
      const headers: Record<string, string> = { access_token: sim.token, "user-agent": "ponte-test" };
      if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
      const res = await fetchSim(`${path}${query ? `?${query}` : ""}`, {
        method: op.upstreamMethod,
        headers,
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      });
      const shape = upstreamShape(operationId);
      const type = res.headers.get("content-type") ?? "";
      const answer = type.includes("json") ? ((await res.json()) as Json) : { bytes: (await res.arrayBuffer()).byteLength };
      expect(res.status, `${operationId}: ${JSON.stringify(answer).slice(0, 400)}`).toBe(shape?.response === "empty" ? 204 : status);
      if (shape?.response === "file") expect(type, operationId).toBe("application/pdf");
      if (shape) expect(checkAnswer(shape, answer), operationId).toEqual([]);
      covered.add(operationId);
      return answer;
    }
    const id = (a: Json) => String(a.id);
    const firstId = (a: Json) => String((a.data as Json[])[0]?.id);
    const cardBody = { creditCard: CARD, creditCardHolderInfo: HOLDER, remoteIp: "203.0.113.7" };

    // Customers and their notifications.
    const C = id(await call("criar-novo-cliente", {}, CUSTOMER));
    await call("listar-clientes");
    await call("recuperar-um-unico-cliente", { id: C });
    expect(await call("atualizar-cliente-existente", { id: C }, { email: "novo@example.com" })).toMatchObject({
      email: "novo@example.com",
    });
    const N = firstId(await call("recuperar-notificacoes-de-um-cliente", { id: C }));
    expect(await call("atualizar-notificacao-existente", { id: N }, { enabled: false })).toMatchObject({ enabled: false });
    const batch = await call("atualizar-notificacoes-existentes-em-lote", {}, { customer: C, notifications: [{ id: N, enabled: true }] });
    expect((batch.notifications as Json[])[0]).toMatchObject({ id: N, enabled: true });
    const C2 = id(await call("criar-novo-cliente", {}, { ...CUSTOMER, name: "Outro" }));
    await call("remover-cliente", { id: C2 });
    await call("restaurar-cliente-removido", { id: C2 }, {});

    // Payments and their actions.
    const pix = { customer: C, billingType: "PIX", value: 100, dueDate: dateIn(5) };
    const P1 = id(await call("criar-nova-cobranca", {}, pix));
    const P2 = id(await call("criar-cobranca-com-cartao-de-credito", {}, { ...pix, billingType: "CREDIT_CARD", ...cardBody }));
    await call("listar-cobrancas", {}, undefined, `customer=${C}&billingType=PIX`);
    await call("recuperar-uma-unica-cobranca", { id: P1 });
    await call("atualizar-cobranca-existente", { id: P1 }, { description: "Pedido 1" });
    await call("recuperar-status-de-uma-cobranca", { id: P1 });
    await call("obter-qr-code-para-pagamentos-via-pix", { id: P1 });
    const P3 = id(await call("criar-nova-cobranca", {}, { ...pix, billingType: "BOLETO" }));
    await call("obter-linha-digitavel-do-boleto", { id: P3 });
    await call("recuperar-informacoes-de-pagamento-de-uma-cobranca", { id: P3 });
    await call("informacoes-sobre-visualizacao-da-cobranca", { id: P3 });
    expect(await call("confirmar-recebimento-em-dinheiro", { id: P1 }, { value: 100 })).toMatchObject({
      id: P1,
      status: "RECEIVED_IN_CASH",
    });
    expect(await call("desfazer-confirmacao-de-recebimento-em-dinheiro", { id: P1 }, {})).toMatchObject({ id: P1, status: "PENDING" });
    const P4 = id(await call("criar-nova-cobranca", {}, { ...pix, billingType: "CREDIT_CARD", ...cardBody, authorizeOnly: true }));
    expect(await call("capturar-cobranca-com-pre-autorizacao", { id: P4 }, {})).toMatchObject({ status: "CONFIRMED" });
    const P5 = id(await call("criar-nova-cobranca", {}, { ...pix, billingType: "CREDIT_CARD", ...cardBody, authorizeOnly: true }));
    await call("capturar-cobranca-com-pre-autorizacao-com-dados-resumidos-na-resposta", { id: P5 }, {});
    const P6 = id(await call("criar-nova-cobranca", {}, { ...pix, billingType: "CREDIT_CARD" }));
    expect(await call("pagar-uma-cobranca-com-cartao-de-credito", { id: P6 }, cardBody)).toMatchObject({ status: "CONFIRMED" });
    const token = String(((await call("tokenizacao-de-cartao-de-credito", {}, { customer: C, ...cardBody })) as Json).creditCardToken);
    const P7 = id(await call("criar-nova-cobranca", {}, { ...pix, billingType: "UNDEFINED" }));
    await call("pagar-uma-cobranca-com-cartao", { id: P7 }, { creditCardToken: token });
    await call("simulador-de-vendas", {}, { value: 100, installmentCount: 3 });
    await call("recuperando-limites-de-cobrancas-1");
    await call("excluir-cobranca", { id: P1 });
    await call("restaurar-cobranca-removida", { id: P1 }, {});
    await call("forcar-vencimento", { id: P1 }, {});
    await call("confirmar-pagamento", { id: P3 }, {});
    await call("estornar-cobranca", { id: P2 }, { value: 10 });
    await call("listar-estornos-de-uma-cobranca", { id: P2 });
    await call("recuperar-efeito-de-contrato-bloqueando-antecipacao-da-cobranca", { id: P1 });

    // Lean ("dados resumidos") payments.
    const L1 = id(await call("criar-nova-cobranca-com-dados-resumidos-na-resposta", {}, pix));
    const L2 = id(
      await call(
        "criar-cobranca-com-cartao-de-credito-com-dados-resumidos-na-resposta",
        {},
        { ...pix, billingType: "CREDIT_CARD", ...cardBody },
      ),
    );
    await call("listar-cobrancas-com-dados-resumidos");
    await call("recuperar-uma-unica-cobranca-com-dados-resumidos", { id: L1 });
    await call("atualizar-cobranca-existente-com-dados-resumidos-na-resposta", { id: L1 }, { description: "lean" });
    await call("confirmar-recebimento-em-dinheiro-com-dados-resumidos-na-resposta", { id: L1 }, {});
    await call("desfazer-confirmacao-de-recebimento-em-dinheiro-com-dados-resumidos-na-resposta", { id: L1 }, {});
    await call("estornar-cobranca-com-dados-resumidos-na-resposta", { id: L2 }, {});
    await call("excluir-cobranca-com-dados-resumidos", { id: L1 });
    await call("restaurar-cobranca-removida-com-dados-resumidos-na-resposta", { id: L1 }, {});

    // A payment's documents.
    const D = id(
      await call(
        "fazer-upload-de-documentos-da-cobranca",
        { id: P1 },
        form({ type: "DOCUMENT", availableAfterPayment: "false", file: file("contrato.pdf", "application/pdf") }),
      ),
    );
    await call("listar-documentos-de-uma-cobranca", { id: P1 });
    expect(
      await call("atualizar-definicoes-de-um-documento-da-cobranca", { id: P1, documentId: D }, { availableAfterPayment: true }),
    ).toMatchObject({ availableAfterPayment: true });
    await call("recuperar-um-unico-documento-da-cobranca", { id: P1, documentId: D });
    await call("excluir-documento-de-uma-cobranca", { id: P1, documentId: D });

    // Installment plans.
    const plan = { customer: C, billingType: "BOLETO", dueDate: dateIn(3), installmentCount: 3, totalValue: 300 };
    const I1 = id(await call("criar-parcelamento", {}, plan));
    const I2 = id(
      await call("criar-parcelamento-com-cartão-de-crédito", {}, { ...plan, billingType: "CREDIT_CARD", installmentCount: 2, ...cardBody }),
    );
    expect((await call("listar-parcelamentos")).totalCount).toBe(2);
    expect(await call("recuperar-um-unico-parcelamento", { id: I1 })).toMatchObject({ id: I1, installmentCount: 3, value: 300 });
    expect((await call("listar-cobranças-de-um-parcelamento", { id: I1 })).totalCount).toBe(3);
    await call("gerar-carne-de-parcelamento", { id: I1 });
    await call("atualizar-splits-do-parcelamento", { id: I1 }, { splits: [{ walletId: crypto.randomUUID(), fixedValue: 10 }] });
    expect(((await call("cancelar-cobrancas-de-um-parcelamento", { id: I1 })).deletedPayments as Json[]).length).toBe(3);
    expect(((await call("estornar-parcelamento", { id: I2 }, {})).refunds as Json[]).length).toBe(2);
    const I3 = id(await call("criar-parcelamento", {}, { ...plan, billingType: "PIX" }));
    await call("remover-parcelamento-1", { id: I3 });

    // Subscriptions.
    const sub = { customer: C, billingType: "BOLETO", value: 59.9, cycle: "MONTHLY", nextDueDate: dateIn(3) };
    const S1 = id(await call("criar-nova-assinatura", {}, sub));
    const S2 = id(await call("criar-assinatura-com-cartao-de-credito", {}, { ...sub, billingType: "CREDIT_CARD", ...cardBody }));
    await call("listar-assinaturas");
    await call("recuperar-uma-unica-assinatura", { id: S1 });
    await call("atualizar-assinatura-existente", { id: S1 }, { description: "Plano" });
    await call("atualizar-cartao-de-credito-assinatura", { id: S2 }, cardBody);
    await call("listar-cobrancas-de-uma-assinatura", { id: S1 });
    await call("gerar-carne-de-assinatura", { id: S1 });
    const settings = {
      municipalServiceCode: "1.01",
      municipalServiceName: "Desenvolvimento",
      observations: "Mensal",
      invoiceCreationPeriod: "ON_PAYMENT_CONFIRMATION",
      receivedOnly: true,
    };
    await call("criar-configuracao-para-emissao-de-notas-fiscais", { id: S1 }, settings);
    await call("recuperar-configuracao-para-emissao-de-notas-fiscais", { id: S1 });
    await call("atualizar-configuracao-para-emissao-de-notas-fiscais", { id: S1 }, { observations: "Novo" });
    await call("listar-notas-fiscais-das-cobrancas-de-uma-assinatura", { id: S1 });
    await call("remover-configuracao-para-emissao-de-notas-fiscais", { id: S1 });
    await call("remover-assinatura", { id: S2 });

    // Payment links, their images, checkouts.
    const K = id(
      await call("criar-um-link-de-pagamentos", {}, { name: "Curso", billingType: "UNDEFINED", chargeType: "DETACHED", value: 50 }),
    );
    await call("listar-links-de-pagamentos");
    await call("atualizar-um-link-de-pagamentos", { id: K }, { description: "Curso online" });
    await call("recuperar-um-unico-link-de-pagamentos", { id: K });
    const IMG = id(
      await call("adicionar-uma-imagem-a-um-link-de-pagamentos", { id: K }, form({ main: "true", image: file("capa.png", "image/png") })),
    );
    await call("listar-imagens-de-um-link-de-pagamentos", { id: K });
    await call("recuperar-uma-unica-imagem-do-link-de-pagamentos", { paymentLinkId: K, imageId: IMG });
    await call("definir-imagem-principal-do-link-de-pagamentos", { paymentLinkId: K, imageId: IMG }, {});
    await call("remover-uma-imagem-do-link-de-pagamentos", { paymentLinkId: K, imageId: IMG });
    await call("remover-um-link-de-pagamentos", { id: K });
    await call("restaurar-um-link-de-pagamentos", { id: K }, {});
    const CK = id(
      await call(
        "criar-novo-checkout",
        {},
        { billingTypes: ["PIX"], chargeTypes: ["DETACHED"], items: [{ name: "Item", value: 10, quantity: 1 }] },
      ),
    );
    await call("cancelar-um-checkout", { id: CK }, {});

    // Card pre-authorization settings, anticipations.
    await call("salvar-ou-atualizar-configuracao-de-pre-autorizacao", {}, { expirationInDays: 5 });
    expect(await call("recuperar-configuracao-de-pre-autorizacao")).toEqual({ expirationInDays: 5 });
    await call("simular-antecipação", {}, { payment: P6 });
    const AN = id(await call("solicitar-antecipacao", {}, form({ payment: P6 })));
    await call("listar-antecipacoes");
    await call("recuperar-uma-unica-antecipacao", { id: AN });
    expect(await call("cancelar-antecipacao", { id: AN }, {})).toMatchObject({ status: "CANCELLED" });
    await call("recuperar-limites-de-antecipacoes");
    await call("atualizar-status-da-antecipacao-automatica", {}, { creditCardAutomaticEnabled: true });
    expect(await call("recuperar-status-da-antecipacao-automatica")).toEqual({ creditCardAutomaticEnabled: true });

    // Chargebacks (opened by the cardholder: a control action), splits, escrow.
    const CB = id((await sim.control<Json>("POST", `/__sim/payments/${P6}/chargeback`, {})).body);
    await call("listar-chargebacks");
    await call("recuperar-um-unico-chargeback", { id: P6 });
    await call("criar-disputa-de-chargeback", { id: CB }, form({ files: file("prova.pdf", "application/pdf") }));
    const P8 = id(await call("criar-nova-cobranca", {}, { ...pix, split: [{ walletId: crypto.randomUUID(), fixedValue: 10 }] }));
    const SP = firstId(await call("listar-splits-pagos", {}, undefined, `paymentId=${P8}`));
    await call("recuperar-um-unico-split-pago", { id: SP });
    await sim.control("POST", "/__sim/splits/received", { totalValue: 25 });
    const SR = firstId(await call("listar-splits-recebidos"));
    await call("recuperar-um-unico-split-recebido", { id: SR });
    await call("criar-configuracao-padrao-da-conta-escrow-para-todas-as-subcontas", {}, { enabled: true, daysToExpire: 10 });
    await call("recuperar-configuracao-padrao-da-conta-escrow");
    const P9 = id(await call("criar-nova-cobranca", {}, pix));
    await call("confirmar-pagamento", { id: P9 }, {});
    const ESC = id(await call("recuperar-garantia-da-cobranca-na-conta-escrow", { id: P9 }));
    await call("encerrar-garantia-da-cobranca-na-conta-escrow", { id: ESC }, {});

    // Credit bureau, dunnings (P1 is overdue), invoices, fiscal info.
    const R = id(await call("realizar-consulta", {}, { customer: C, state: "SP" }));
    await call("listar-consultas-1");
    await call("recuperar-uma-consulta-1", { id: R });
    await call("simular-uma-negativacao", {}, {}, `payment=${P1}`);
    await call("listar-cobrancas-disponiveis-para-negativacao");
    const DU = id(await call("criar-uma-negativacao", {}, form({ payment: P1, type: "CREDIT_BUREAU", description: "Dívida" })));
    await call("listar-negativacoes");
    await call("recuperar-uma-unica-negativacao", { id: DU });
    await call("listar-historico-de-eventos", { id: DU });
    await call("listar-pagamentos-recebidos", { id: DU });
    await call("reenviar-documentos", { id: DU }, form({ documents: file("nota.pdf", "application/pdf") }));
    await call("cancelar-negativacao", { id: DU }, {});
    const invoice = {
      payment: P3,
      serviceDescription: "Serviço",
      observations: "Obs",
      value: 100,
      effectiveDate: dateIn(1),
      municipalServiceCode: "1.01",
      municipalServiceName: "Dev",
    };
    const NF = id(await call("agendar-nota-fiscal", {}, invoice));
    await call("listar-notas-fiscais");
    await call("atualizar-nota-fiscal", { id: NF }, { observations: "Nova" });
    await call("recuperar-uma-nota-fiscal", { id: NF });
    expect(await call("emitir-uma-nota-fiscal", { id: NF }, {})).toMatchObject({ status: "AUTHORIZED" });
    await call("cancelar-uma-nota-fiscal", { id: NF }, {});
    await call("listar-configuracoes-municipais");
    await call("criar-e-atualizar-informacoes-fiscais", {}, form({ email: "fiscal@example.com", simplesNacional: "true" }));
    await call("recuperar-informacoes-fiscais");
    await call("listar-servicos-municipais", {}, undefined, "description=1.01");
    await call("listar-codigos-nbs");
    await call("configurar-portal-emissor-de-notas-fiscais", {}, { useNationalPortal: true });
    await call("listar-codigos-servicos-federais");
    await call("listar-codigos-de-operadores-de-indicacoes");
    await call("listar-codigos-de-classificacoes-tributarias");
    await call("listar-codigos-de-situacoes-tributarias");

    // Pix: keys, static QR codes, paying and decoding, Pix Automático.
    const KEY = id(await call("criar-uma-chave", {}, { type: "EVP" }));
    await call("listar-chaves");
    await call("recuperar-uma-unica-chave", { id: KEY });
    const QR = await call("criar-qrcode-estatico", {}, { value: 10, description: "Doação" });
    await call("deletar-qrcode-estatico", { id: id(QR) });
    await call("consulta-de-fichas-disponiveis-no-balde");
    await call("consultar-chave-pix", {}, undefined, "key=maria@example.com&type=EMAIL");
    expect(await call("decodificar-um-qrcode-para-pagamento", {}, { payload: QR.payload })).toMatchObject({ value: 10, type: "STATIC" });
    const TX = id(await call("pagar-um-qrcode", {}, { qrCode: { payload: QR.payload }, value: 10 }));
    await call("listar-transacoes");
    await call("recuperar-uma-unica-transacao", { id: TX });
    const TX2 = id(await call("pagar-um-qrcode", {}, { qrCode: { payload: QR.payload }, value: 10, scheduleDate: dateIn(2) }));
    await call("cancelar-uma-transacao-agendada", { id: TX2 }, {});
    await call("remover-chave", { id: KEY });
    const AU = id(
      await call(
        "criar-uma-autorizacao-pix-automatico",
        {},
        { customerId: C, frequency: "MONTHLY", contractId: "c-1", startDate: dateIn(1), value: 50 },
      ),
    );
    await call("listar-autorizacoes-pix-automatico");
    await call("recuperar-uma-unica-autorizacao-pix-automatico", { id: AU });
    await call("criar-nova-cobranca", {}, { ...pix, pixAutomaticAuthorizationId: AU });
    const IN = firstId(await call("listar-instrucoes-de-pagamento-pix-automatico", {}, undefined, `authorizationId=${AU}`));
    await call("recuperar-uma-unica-instrucao-de-pagamento-pix-automatico", { id: IN });
    await call("criar-retentativa-de-instrucao-de-pagamento-pix-automatico", { id: IN }, {});
    await call("cancelar-uma-autorizacao-pix-automatico", { id: AU });

    // Transfers (and a Pix recurrence), bills, top-ups.
    const T1 = id(
      await call(
        "transferir-para-conta-de-outra-instituicao-ou-chave-pix",
        {},
        { value: 10, pixAddressKey: "maria@example.com", pixAddressKeyType: "EMAIL" },
      ),
    );
    await call("transferir-para-conta-asaas", {}, { value: 5, walletId: crypto.randomUUID() });
    await call("listar-transferencias");
    await call("recuperar-uma-unica-transferencia", { id: T1 });
    const TR = await call(
      "transferir-para-conta-de-outra-instituicao-ou-chave-pix",
      {},
      { value: 10, pixAddressKey: "maria@example.com", pixAddressKeyType: "EMAIL", recurring: { frequency: "MONTHLY", quantity: 3 } },
    );
    const REC = String(TR.recurring);
    await call("listar-recorrencias");
    await call("recuperar-uma-unica-recorrencia", { id: REC });
    const ITEM = firstId(await call("listar-itens-de-uma-recorrencia", { id: REC }));
    await call("cancelar-item-de-uma-recorrencia", { id: ITEM }, {});
    await call("cancelar-uma-recorrencia", { id: REC }, {});
    expect(await call("cancelar-uma-transferência", { id: T1 })).toMatchObject({ id: T1, status: "CANCELLED" });
    await call("simular-um-pagamento-de-conta", {}, { identificationField: BOLETO_LINE });
    const B = id(await call("criar-um-pagamento-de-conta", {}, { identificationField: BOLETO_LINE }));
    await call("listar-pagamento-de-contas");
    await call("recuperar-um-unico-pagamento-de-conta", { id: B });
    await call("cancelar-pagamento-de-contas", { id: B }, {});
    await call("buscar-qual-provedor-o-numero-pertence-e-os-valores-disponiveis-para-recarga", { phoneNumber: "11987654321" });
    const M = id(await call("solicitar-recarga", {}, { phoneNumber: "11987654321", value: 20 }));
    await call("listar-recargas-de-celular");
    await call("recuperar-uma-unica-recarga-de-celular", { id: M });
    await call("cancelar-uma-recarga-de-celular", { id: M }, {});

    expect(await call("estornar-boleto", { id: P3 }, {})).toMatchObject({ requestUrl: expect.stringContaining("/estorno/") });
    expect(await call("recuperar-uma-unica-cobranca", { id: P3 })).toMatchObject({ status: "REFUND_REQUESTED" });

    // Money views, the account, webhooks, subaccounts, sandbox.
    await call("recuperar-extrato");
    await call("recuperar-saldo-da-conta");
    await call("estatisticas-de-cobrancas");
    await call("recuperar-valores-de-split");
    await call("recuperar-dados-comerciais");
    await call("atualizar-dados-comerciais", {}, { email: "financeiro@example.com" });
    await call(
      "salvar-personalizacao-da-fatura",
      {},
      form({ logoBackgroundColor: "#FF0000", infoBackgroundColor: "#FFFFFF", fontColor: "#000000" }),
    );
    await call("recuperar-configuracoes-de-personalizacao");
    await call("recuperar-numero-de-conta-no-asaas");
    await call("recuperar-taxas-da-conta");
    await call("consultar-situacao-cadastral-da-conta");
    await call("aprovar-conta", {}, {});
    await call("recuperar-walletid");
    const W = id(
      await call(
        "criar-novo-webhook",
        {},
        {
          name: "erp",
          url: "https://erp.example.com/hook",
          email: "ti@example.com",
          sendType: "SEQUENTIALLY",
          events: ["PAYMENT_RECEIVED"],
        },
      ),
    );
    await call("listar-webhooks");
    await call("recuperar-um-unico-webhook", { id: W });
    await call("atualizar-webhook-existente", { id: W }, { enabled: false });
    await call("remover-penalizacao-webhook", { id: W }, {});
    await call("remover-webhook", { id: W });
    const A = id(
      await call(
        "criar-subconta",
        {},
        {
          name: "Loja Filial",
          email: "filial@example.com",
          cpfCnpj: "66625514000140",
          mobilePhone: "11988887777",
          incomeValue: 5000,
          address: "Av. Paulista",
          addressNumber: "100",
          province: "Bela Vista",
          postalCode: "01310100",
        },
      ),
    );
    await call("reenviar-link-de-ativacao-para-subconta-nao-baas", { id: A }, {});
    await call("listar-subcontas");
    await call("recuperar-uma-unica-subconta", { id: A });
    await call("salvar-ou-atualizar-configuracao-da-conta-escrow-para-a-subconta", { id: A }, { enabled: true, daysToExpire: 5 });
    await call("recuperar-configuracao-da-conta-escrow-para-a-subconta", { id: A });
    const TK = id(await call("criar-chave-de-api-para-uma-subconta", { id: A }, { name: "erp" }));
    await call("listar-chaves-de-api-de-uma-subconta", { id: A });
    await call("atualizar-chave-de-api-de-uma-subconta", { id: A, accessTokenId: TK }, { enabled: false });
    await call("excluir-chave-de-api-de-uma-subconta", { id: A, accessTokenId: TK });
    await call("encerrar-subconta-nao-baas", { id: A });
    await call("excluir-subconta-baas", {}, undefined, "removeReason=teste");

    expect(CATALOGUE.map((op) => op.operationId).filter((opId) => !covered.has(opId))).toEqual([]);
  }, 120_000);
});
