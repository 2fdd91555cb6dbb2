// The Asaas dialect's native objects are the upstream's objects: every native operation (customers,
// payments incl. the PIX QR code, boleto and card fields, refunds, card tokens, subscriptions) is called
// at the upstream's layout (/v3, access_token) and its answer checked against the operation's generated
// upstream shape with the simulator's checker (sim/src/shape-check.ts) in its exact mode: every field
// the upstream's object has is present with the upstream's type (null where Ponte has no value), and no
// field the upstream lacks except the ones docs/compatibility.md "Migrating from Asaas" documents (ALLOWED).
import { describe, expect, it } from "vitest";
import { upstreamShape } from "../../src/compat/upstream-shapes";
import { checkAnswer } from "../../sim/src/shape-check";
import { type AsaasClient, asaasCall, type Json } from "./asaas-support";
import { card, dueDate, HOLDER, seedBillingTenant } from "./billing-support";

const V3: AsaasClient = { prefix: "/v3", header: "access_token" };

/** Fields Ponte's objects carry beyond the upstream's spec (documented in docs/compatibility.md "Migrating from Asaas"). */
const ALLOWED: readonly string[] = ["PaymentGetResponse.refundedValue"];

describe("the Asaas dialect's native objects match the generated upstream shapes", { timeout: 60_000 }, () => {
  it("walks every native operation and checks each answer exactly", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const covered = new Set<string>();
    const problems: string[] = [];

    async function op(operationId: string, method: string, path: string, body?: unknown): Promise<Json> {
      const res = await asaasCall(V3, t.key, method, path, body);
      expect(res.status, `${operationId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      const shape = upstreamShape(operationId);
      if (!shape) throw new Error(`no upstream shape for ${operationId}`);
      for (const p of checkAnswer(shape, res.body, { exact: { allowed: ALLOWED } })) problems.push(`${operationId} ${p}`);
      covered.add(operationId);
      return res.body;
    }

    const customer = await op("criar-novo-cliente", "POST", "/customers", {
      name: "Maria Silva",
      cpfCnpj: "52998224725",
      email: "maria@example.com",
      mobilePhone: "11987654321",
    });
    await op("listar-clientes", "GET", "/customers");
    await op("recuperar-um-unico-cliente", "GET", `/customers/${customer.id}`);
    await op("atualizar-cliente-existente", "PUT", `/customers/${customer.id}`, { name: "Maria S. Souza" });
    const other = await op("criar-novo-cliente", "POST", "/customers", { name: "João Lima", cpfCnpj: "11222333000181" });
    expect(await op("remover-cliente", "DELETE", `/customers/${other.id}`)).toEqual({ deleted: true, id: other.id });
    await op("restaurar-cliente-removido", "POST", `/customers/${other.id}/restore`);

    const pix = await op("criar-nova-cobranca", "POST", "/payments", {
      customer: customer.id,
      billingType: "PIX",
      value: 129.9,
      dueDate: dueDate(),
    });
    await op("obter-qr-code-para-pagamentos-via-pix", "GET", `/payments/${pix.id}/pixQrCode`);
    expect(await op("recuperar-status-de-uma-cobranca", "GET", `/payments/${pix.id}/status`)).toEqual({ status: "PENDING" });
    const boleto = await op("criar-nova-cobranca", "POST", "/payments", {
      customer: customer.id,
      billingType: "BOLETO",
      value: 50,
      dueDate: dueDate(10),
    });
    await op("recuperar-uma-unica-cobranca", "GET", `/payments/${boleto.id}`);
    await op("listar-cobrancas", "GET", "/payments");
    expect(await op("excluir-cobranca", "DELETE", `/payments/${boleto.id}`)).toEqual({ deleted: true, id: boleto.id });

    const token = await op("tokenizacao-de-cartao-de-credito", "POST", "/creditCard/tokenizeCreditCard", {
      customer: customer.id,
      creditCard: card(),
      creditCardHolderInfo: HOLDER,
      remoteIp: "203.0.113.7",
    });
    await op("criar-cobranca-com-cartao-de-credito", "POST", "/payments", {
      customer: customer.id,
      billingType: "CREDIT_CARD",
      value: 200,
      dueDate: dueDate(),
      creditCardToken: token.creditCardToken,
      remoteIp: "203.0.113.7",
    });

    expect((await asaasCall(V3, t.key, "POST", `/sandbox/payment/${pix.id}/confirm`, {})).status).toBe(200);
    await op("estornar-cobranca", "POST", `/payments/${pix.id}/refund`, {});
    await op("listar-estornos-de-uma-cobranca", "GET", `/payments/${pix.id}/refunds`);

    const subscription = { customer: customer.id, billingType: "BOLETO", value: 59.9, cycle: "MONTHLY", nextDueDate: dueDate(3) };
    const sub = await op("criar-nova-assinatura", "POST", "/subscriptions", subscription);
    await op("criar-assinatura-com-cartao-de-credito", "POST", "/subscriptions", {
      ...subscription,
      billingType: "CREDIT_CARD",
      creditCard: card(),
      creditCardHolderInfo: HOLDER,
      remoteIp: "203.0.113.7",
    });
    await op("recuperar-uma-unica-assinatura", "GET", `/subscriptions/${sub.id}`);
    await op("listar-assinaturas", "GET", "/subscriptions");
    expect(await op("remover-assinatura", "DELETE", `/subscriptions/${sub.id}`)).toEqual({ deleted: true, id: sub.id });

    expect(problems).toEqual([]);
    expect(covered.size).toBe(21);
  });
});
