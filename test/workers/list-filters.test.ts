// Native list filters as the upstream spells them (issue 12, point 4): `dueDate[ge]`, `paymentDate[le]`,
// `dateCreated[ge]`…, and an unknown or malformed parameter is a 400 naming it, never ignored.
import { describe, expect, it } from "vitest";
import type { Payment, Reply } from "./bodies";
import { createCustomer, createPayment, dueDate, seedBillingTenant, sim, type BillingTenant } from "./billing-support";
import { call, expectError } from "./support";

const ids = async (t: BillingTenant, query: string) => {
  const res = await call<Reply<Payment[]>>("GET", `/api/v1/payments?${query}`, { key: t.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((p) => p.id).sort();
};
/** Today in Brazil (UTC−03:00), the day `dateCreated` filters by. */
const brazilDay = (offsetDays = 0) => new Date(Date.now() - 3 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe("payment list filters", () => {
  it("dueDate, dueDate[ge], dueDate[le], paymentDate[…] and dateCreated[…] select by day, inclusive", async () => {
    const t = await seedBillingTenant();
    const customer = await createCustomer(t);
    const [soon, mid, late] = await Promise.all(
      [3, 10, 20].map(async (days) => (await createPayment(t, customer.id, { dueDate: dueDate(days) })).body.data),
    );
    const sorted = (...ps: (Payment | undefined)[]) => ps.map((p) => p?.id).sort();

    expect(await ids(t, `dueDate[ge]=${dueDate(10)}`)).toEqual(sorted(mid, late));
    expect(await ids(t, `dueDate[le]=${dueDate(10)}`)).toEqual(sorted(soon, mid));
    expect(await ids(t, `dueDate[ge]=${dueDate(4)}&dueDate[le]=${dueDate(19)}`)).toEqual(sorted(mid));
    expect(await ids(t, `dueDate=${dueDate(20)}`)).toEqual(sorted(late));
    expect(await ids(t, `dueDate[ge]=${dueDate(21)}`)).toEqual([]);

    expect(await ids(t, `dateCreated[ge]=${brazilDay()}`)).toEqual(sorted(soon, mid, late));
    expect(await ids(t, `dateCreated=${brazilDay()}&dueDate[ge]=${dueDate(5)}`)).toEqual(sorted(mid, late));
    expect(await ids(t, `dateCreated[le]=${brazilDay(-1)}`)).toEqual([]);

    // Paid today (the upstream's webhook sets paymentDate).
    await sim("POST", `/v3/sandbox/payment/${soon?.upstreamId}/confirm`, {}, t.upstreamKey);
    const paid = (await call<Reply<Payment>>("GET", `/api/v1/payments/${soon?.id}`, { key: t.key })).body.data;
    expect(paid.paymentDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await ids(t, `paymentDate=${paid.paymentDate}`)).toEqual(sorted(soon));
    expect(await ids(t, `paymentDate[ge]=${paid.paymentDate}&paymentDate[le]=${paid.paymentDate}`)).toEqual(sorted(soon));
    expect(await ids(t, `paymentDate[le]=${paid.paymentDate}&status=PENDING`)).toEqual([]);
    expect(await ids(t, "status=PENDING&billingType=PIX")).toEqual(sorted(mid, late));
  });

  it("an unknown parameter is 400 naming it (never ignored); a malformed date is 400 naming the field", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const unknown = expectError(await call("GET", "/api/v1/payments?dueDate[gt]=2026-12-01", { key: t.key }), 400, "VALIDATION_FAILED");
    expect(unknown.details.fields).toEqual([{ path: "query.dueDate[gt]", message: "unknown parameter", code: "unrecognized_keys" }]);
    const bad = expectError(await call("GET", "/api/v1/payments?dueDate[ge]=2026-13-01", { key: t.key }), 400, "VALIDATION_FAILED");
    expect(bad.details.fields.map((f) => f.path)).toEqual(["query.dueDate[ge]"]);
    for (const path of ["/api/v1/customers?nome=Ana", "/api/v1/subscriptions?plano=x"]) {
      const err = expectError(await call("GET", path, { key: t.key }), 400, "VALIDATION_FAILED");
      expect(err.details.fields.map((f) => f.path)).toEqual([`query.${path.split("?")[1]?.split("=")[0]}`]);
    }
    // Paging and the documented filters still pass.
    expect((await call("GET", "/api/v1/customers?limit=5&offset=0&name=Ana", { key: t.key })).status).toBe(200);
  });
});
