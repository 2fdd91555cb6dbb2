// The reference tells the truth about passthrough answers: for a sample of passthrough operations of
// each kind (object, list, action, delete, empty), the success schema GET /api/v1/openapi.json gives
// the operation (derived from the upstream shapes, src/compat/passthrough-answers.ts) validates what
// a Bearer caller really receives from the simulator through Ponte — and rejects the upstream's own
// wire format (money as numbers, local date-times), so the check is not vacuous.
import { Validator } from "@cfworker/json-schema";
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createPayment, dueDate, seedBillingTenant, type BillingTenant } from "./billing-support";
import { BASE, call } from "./support";

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  "x-implementation"?: string;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}

let doc: Document;
let t: BillingTenant;
const byId = new Map<string, Operation>();

beforeAll(async () => {
  const res = await SELF.fetch(`${BASE}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) if (op.operationId) byId.set(op.operationId, op);
  t = await seedBillingTenant({ webhooks: false });
}, 60_000);

/** The documented success schema of a passthrough operation (never the generic one). */
function schemaOf(operationId: string): Json {
  const op = byId.get(operationId);
  expect(op?.["x-implementation"], operationId).toBe("passthrough");
  const schema = op?.responses["200"]?.content?.["application/json"]?.schema;
  expect(schema, operationId).toMatchObject({ required: ["data", "meta"] });
  return schema as Json;
}

/** What the document's schema says about `body`: [] when it validates. */
function problems(operationId: string, body: unknown): string[] {
  const validator = new Validator({ ...schemaOf(operationId), components: doc.components } as never, "2020-12", false);
  return validator.validate(body).errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** A passthrough call with the Bearer key, its answer checked against its operation's documented schema. */
async function checked(operationId: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await call<Json>(method, `/api/v1${path}`, { key: t.key, ...(body === undefined ? {} : { body }) });
  expect(res.status, `${operationId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  expect(problems(operationId, res.body), operationId).toEqual([]);
  return res.body;
}

const dataOf = (body: Json) => body.data as Json & Json[];

describe("the reference's passthrough answers validate what a Bearer caller receives", { timeout: 60_000 }, () => {
  it("objects and lists: installment plans (held records, Ponte UUIDs and upstreamId), their payments, transfers, the statement", async () => {
    const customer = await createCustomer(t);
    const plan = { customer: customer.id, billingType: "BOLETO", dueDate: dueDate(3), installmentCount: 3, totalValue: 300 };
    const created = dataOf(await checked("criar-parcelamento", "POST", "/installments", plan));
    expect(created).toMatchObject({ customer: customer.id, value: "300.00" });
    const payments = await checked("listar-cobranças-de-um-parcelamento", "GET", `/installments/${created.id}/payments`);
    expect(dataOf(payments)).toHaveLength(3);
    expect(payments.meta).toMatchObject({ pagination: { totalCount: 3, hasMore: false } });
    await checked("recuperar-um-unico-parcelamento", "GET", `/installments/${created.id}`);
    await checked("listar-parcelamentos", "GET", "/installments");

    const transfer = { value: 50, pixAddressKey: "maria@example.com", pixAddressKeyType: "EMAIL" };
    const sent = dataOf(await checked("transferir-para-conta-de-outra-instituicao-ou-chave-pix", "POST", "/transfers", transfer));
    expect(sent.value).toBe("50.00");
    await checked("recuperar-uma-unica-transferencia", "GET", `/transfers/${sent.id}`);
    await checked("listar-transferencias", "GET", "/transfers");
    await checked("recuperar-extrato", "GET", "/financialTransactions");
    await checked("recuperar-saldo-da-conta", "GET", "/finance/balance");
  });

  it("actions, deletes and an empty answer: cash receipt on a Ponte payment, a Pix key, a webhook's backoff", async () => {
    const customer = await createCustomer(t, { email: "joao@example.com" });
    const payment = await createPayment(t, customer.id);
    expect(payment.status).toBe(200);
    const received = dataOf(
      await checked("confirmar-recebimento-em-dinheiro", "POST", `/payments/${payment.body.data.id}/receiveInCash`, { value: 100 }),
    );
    expect(received).toMatchObject({ id: payment.body.data.id, status: "RECEIVED_IN_CASH", value: "100.00" });
    expect(received.upstreamId).toMatch(/^pay_/);

    const created = await checked("criar-uma-chave", "POST", "/pix/addressKeys", { type: "EVP" });
    const key = dataOf(created);
    expect(key.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const atLocalTime = { ...created, data: { ...key, dateCreated: "2026-11-26 17:00:00" } }; // the upstream's wall clock
    expect(problems("criar-uma-chave", atLocalTime).join("\n")).toContain("/data/dateCreated");
    await checked("listar-chaves", "GET", "/pix/addressKeys");
    expect(dataOf(await checked("remover-chave", "DELETE", `/pix/addressKeys/${key.id}`))).toMatchObject({ id: key.id });

    const hook = {
      name: "erp",
      url: "https://erp.example.com/hook",
      email: "ti@example.com",
      sendType: "SEQUENTIALLY",
      events: ["PAYMENT_RECEIVED"],
    };
    const webhook = dataOf(await checked("criar-novo-webhook", "POST", "/webhooks", hook));
    await checked("remover-penalizacao-webhook", "POST", `/webhooks/${webhook.id}/removeBackoff`, {});
  });

  it("rejects the upstream's own wire format: numbers for money and local date-times are not what the reference promises", async () => {
    const upstream = { object: "transfer", id: "tra_000000000001", type: "PIX", dateCreated: "2026-11-26", status: "PENDING" };
    const raw = { ...upstream, value: 50, netValue: 50, transferFee: 0 };
    const ponte = { ...upstream, value: "50.00", netValue: "50.00", transferFee: "0.00" };
    const meta = { requestId: "req_1", upstream: { status: 200, durationMs: 3 } };
    expect(problems("recuperar-uma-unica-transferencia", { data: raw, meta }).join("\n")).toContain("/data/value");
    expect(problems("recuperar-uma-unica-transferencia", { data: ponte, meta })).toEqual([]);
    const list = { data: [ponte], meta };
    expect(problems("listar-transferencias", list).join("\n")).toContain("/meta"); // a list's meta carries its pagination
  });
});
