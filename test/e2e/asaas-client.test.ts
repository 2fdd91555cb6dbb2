// A real Asaas client library, unchanged, pointed at Ponte by its base URL and a Ponte test key: the `asaas`
// npm package (axios underneath, the key in `access_token`, POST for updates, DELETE to cancel a subscription,
// POST …/cancel for a transfer). It runs in Node against the local worker (test/e2e/global-setup.ts), over
// every base-URL form a merchant may use: the upstream's layout (`/v3`), the legacy one (`/api/v3`) and
// Ponte's own (`/api/v1`).
import { AsaasClient } from "asaas";
import { describe, expect, inject, it } from "vitest";

const { baseUrl, apiKey } = inject("ponte");

/** The three base-URL forms: `https://api.asaas.com/v3` → `<host>/v3`, the legacy `/api/v3`, and `/api/v1`. */
const FORMS = [
  ["the upstream's layout, /v3", `${baseUrl}/v3`],
  ["the legacy layout, /api/v3", `${baseUrl}/api/v3`],
  ["Ponte's root, /api/v1", `${baseUrl}/api/v1`],
] as const;

const client = (base: string, key = apiKey) => new AsaasClient(key, { baseUrl: base, printError: false });
/** A due date as Asaas documents it (`YYYY-MM-DD`); the library's types say Date, its wire is the string. */
const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10) as unknown as Date;

/** The error body the client library hands back on a failed call (axios keeps the response). */
async function failure(call: Promise<unknown>): Promise<{ status: number; errors: { code: string; description: string }[] }> {
  try {
    await call;
  } catch (err) {
    const res = (err as { response?: { status: number; data: { errors: { code: string; description: string }[] } } }).response;
    if (!res) throw err;
    return { status: res.status, errors: res.data.errors };
  }
  throw new Error("the call succeeded");
}

describe.each(FORMS)("the asaas npm client over %s", (_form, base) => {
  const asaas = client(base);
  let customerId = "";

  it("creates, reads, updates (POST), lists, deletes and restores a customer", async () => {
    const created = await asaas.customers.new({ name: "Maria Silva", cpfCnpj: "52998224725", email: "maria@example.com" });
    expect(created).toMatchObject({ object: "customer", name: "Maria Silva", cpfCnpj: "52998224725" });
    expect(created.id).toMatch(/^cus_/);
    customerId = created.id as string;
    expect(await asaas.customers.getById(customerId)).toMatchObject({ id: customerId, email: "maria@example.com" });
    expect(await asaas.customers.updateById(customerId, { name: "Maria S. Souza", cpfCnpj: "52998224725" })).toMatchObject({
      id: customerId,
      name: "Maria S. Souza",
    });
    const list = await asaas.customers.list({ cpfCnpj: "52998224725", limit: 100 });
    expect(list).toMatchObject({ object: "list", limit: 100, offset: 0 });
    expect(list.data.map((c) => c.id)).toContain(customerId);
    const other = await asaas.customers.new({ name: "Temporário", cpfCnpj: "11144477735" });
    expect(await asaas.customers.delete(other.id as string)).toEqual({ deleted: true, id: other.id });
    expect(await asaas.customers.restore(other.id as string)).toMatchObject({ id: other.id, deleted: false });
  });

  it("charges by PIX (QR code), boleto (identification field) and card (token), and pages the list at 100", async () => {
    const pix = await asaas.payments.new({ customer: customerId, billingType: "PIX", value: 129.9, dueDate: dueIn(5) });
    expect(pix).toMatchObject({ object: "payment", billingType: "PIX", value: 129.9, status: "PENDING", customer: customerId });
    expect(pix.id).toMatch(/^pay_/);
    const qr = await asaas.payments.getPixQrCode(pix.id as string);
    expect(qr.payload).toMatch(/^000201/);
    expect(qr.encodedImage?.length).toBeGreaterThan(100);

    const boleto = await asaas.payments.new({ customer: customerId, billingType: "BOLETO", value: 59.9, dueDate: dueIn(10) });
    const line = await asaas.payments.getIdentificationField(boleto.id as string);
    expect(line.identificationField).toMatch(/^\d{47}$/);

    const card = await asaas.payments.new({
      customer: customerId,
      billingType: "CREDIT_CARD",
      value: 99.9,
      dueDate: dueIn(0),
      creditCard: { holderName: "MARIA SILVA", number: "4111111111111111", expiryMonth: "12", expiryYear: "2030", ccv: "123" },
      creditCardHolderInfo: {
        name: "Maria Silva",
        email: "maria@example.com",
        cpfCnpj: "52998224725",
        postalCode: "01310100",
        addressNumber: "100",
        phone: "11999999999",
      },
      remoteIp: "203.0.113.7",
    } as never);
    expect(card).toMatchObject({ billingType: "CREDIT_CARD", status: "CONFIRMED" });
    const token = (card as unknown as { creditCard: { creditCardToken: string } }).creditCard.creditCardToken;
    expect(token).toBeTruthy();
    const again = await asaas.payments.new({
      customer: customerId,
      billingType: "CREDIT_CARD",
      value: 19.9,
      dueDate: dueIn(0),
      creditCardToken: token,
      remoteIp: "203.0.113.7",
    } as never);
    expect(again).toMatchObject({ billingType: "CREDIT_CARD", status: "CONFIRMED" });

    const page = await asaas.payments.list({ customer: customerId, limit: 100 } as never);
    expect(page).toMatchObject({ object: "list", totalCount: 4, hasMore: false });
    expect(page.data).toHaveLength(4);
  });

  it("refunds, receives in cash and undoes it, deletes and restores a charge, and updates one with POST", async () => {
    const card = (await asaas.payments.list({ customer: customerId, billingType: "CREDIT_CARD", limit: 100 } as never)).data[0];
    expect(card).toBeDefined();
    const refunded = await asaas.payments.refund(card?.id as string, { value: 5 } as never);
    expect(refunded).toMatchObject({ id: card?.id });

    const cash = await asaas.payments.new({ customer: customerId, billingType: "BOLETO", value: 40, dueDate: dueIn(3) });
    const received = await asaas.payments.receiveInCash(cash.id as string, { paymentDate: dueIn(0), value: 40 } as never);
    expect(received).toMatchObject({ id: cash.id, status: "RECEIVED_IN_CASH" });
    expect(await asaas.payments.undoReceivedInCash(cash.id as string)).toMatchObject({ id: cash.id, status: "PENDING" });

    // Ponte's record follows the undo (issue 25): the charge is open again, so it can be updated, deleted and restored.
    const updated = await asaas.payments.updateById(cash.id as string, { value: 45, dueDate: dueIn(4), billingType: "BOLETO" } as never);
    expect(updated).toMatchObject({ id: cash.id, value: 45, status: "PENDING" });
    expect(await asaas.payments.delete(cash.id as string)).toEqual({ deleted: true, id: cash.id });
    expect(await asaas.payments.restore(cash.id as string)).toMatchObject({ id: cash.id, deleted: false });
  });

  it("creates an installment plan and reads it and its charges", async () => {
    const first = await asaas.payments.new({
      customer: customerId,
      billingType: "BOLETO",
      value: 300,
      installmentCount: 3,
      dueDate: dueIn(7),
    } as never);
    const installment = (first as unknown as { installment: string }).installment;
    expect(installment).toBeTruthy();
    expect(await asaas.installments.getById(installment)).toMatchObject({ id: installment, installmentCount: 3 });
    const plans = await asaas.installments.list({ limit: 100 } as never);
    expect(plans.data.map((p) => p.id)).toContain(installment);
    const charges = await asaas.payments.list({ installment, limit: 100 } as never);
    expect(charges.totalCount).toBe(3);
  });

  it("subscribes without a plan, updates with POST, reads its charges and cancels with DELETE", async () => {
    const sub = await asaas.subscriptions.create({
      customer: customerId,
      billingType: "BOLETO",
      value: 59.9,
      nextDueDate: dueIn(3),
      cycle: "MONTHLY",
      description: "Plano Pro",
    } as never);
    expect(sub).toMatchObject({ object: "subscription", cycle: "MONTHLY", value: 59.9, status: "ACTIVE" });
    expect(sub.id).toMatch(/^sub_/);
    const updated = await asaas.subscriptions.updateById(sub.id as string, { description: "Plano Pro anual" } as never);
    expect(updated).toMatchObject({ id: sub.id, description: "Plano Pro anual" });
    const charges = await asaas.subscriptions.getPayments(sub.id as string);
    expect(charges).toMatchObject({ object: "list" });
    expect((await asaas.subscriptions.list({ customer: customerId, limit: 100 } as never)).data.map((s) => s.id)).toContain(sub.id);
    expect(await asaas.subscriptions.delete(sub.id as string)).toEqual({ deleted: true, id: sub.id });
  });

  it("moves money: a transfer and its cancel, the balance, the statement", async () => {
    const transfer = await asaas.transfers.create({
      value: 10,
      pixAddressKey: "maria@example.com",
      pixAddressKeyType: "EMAIL",
    } as never);
    expect(transfer).toMatchObject({ object: "transfer", value: 10 });
    expect((await asaas.transfers.list({ limit: 100 } as never)).data.map((t: { id: string }) => t.id)).toContain(transfer.id);
    expect(await asaas.transfers.cancel(transfer.id as string)).toMatchObject({ id: transfer.id, status: "CANCELLED" });
    expect(await asaas.transfers.getById(transfer.id as string)).toMatchObject({ id: transfer.id, status: "CANCELLED" });
    // The library has no finance calls: the merchant's own code reads them with the same base URL and header.
    const get = (path: string) => fetch(`${base}${path}`, { headers: { access_token: apiKey } }).then((r) => r.json());
    const balance = (await get("/finance/balance")) as { balance: number };
    expect(typeof balance.balance).toBe("number");
    const statement = (await get("/financialTransactions?limit=100")) as { object: string; data: unknown[] };
    expect(statement.object).toBe("list");
    expect(Array.isArray(statement.data)).toBe(true);
  });

  it("configures a webhook: create, update with POST, list, delete", async () => {
    const hook = await asaas.webhooks.create({
      name: "ERP",
      url: "https://erp.example.com/asaas",
      email: "dev@example.com",
      enabled: true,
      interrupted: false,
      sendType: "SEQUENTIALLY",
      events: ["PAYMENT_RECEIVED"],
    } as never);
    expect(hook.id).toBeTruthy();
    expect(await asaas.webhooks.updateById(hook.id as string, { enabled: false } as never)).toMatchObject({ id: hook.id, enabled: false });
    expect((await asaas.webhooks.list()).data.map((w: { id: string }) => w.id)).toContain(hook.id);
    expect(await asaas.webhooks.delete(hook.id as string)).toMatchObject({ deleted: true, id: hook.id });
  });

  it("gets the documented errors: a missing field, an unknown record, a bad key", async () => {
    const missing = await failure(asaas.customers.new({ cpfCnpj: "52998224725" } as never));
    expect(missing.status).toBe(400);
    expect(missing.errors[0]?.code).toMatch(/^invalid_/);
    const unknown = await failure(asaas.payments.getById("pay_000000000000"));
    expect(unknown.status).toBe(404);
    const badKey = await failure(client(base, "ponte_test_not_a_real_key_0000000000").customers.list());
    expect(badKey).toMatchObject({ status: 401, errors: [{ code: "invalid_access_token" }] });
  });
});
