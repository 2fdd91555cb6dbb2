// The simulator checks requests against the upstream's own enums (src/compat/upstream-shapes.ts, generated from
// its API reference), not copies: every value of the enum is what it accepts or makes, and nothing else.
import { describe, expect, it } from "vitest";
import { UPSTREAM_ENUMS } from "../../src/compat/upstream-shapes";
import { account, createCustomer, dateIn, type SimRecord } from "./helpers";

type Answer = { errors: { code: string; description: string }[] };
const values = (name: string) => UPSTREAM_ENUMS[name] ?? [];

describe("simulator tables from the upstream's enums", () => {
  it("a new customer's notifications: one per NotificationEvent", async () => {
    const sim = account();
    const customer = await createCustomer(sim);
    const list = await sim.json<{ data: SimRecord[] }>("GET", `/v3/customers/${customer.id}/notifications`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((n) => n.event).sort()).toEqual([...values("NotificationEvent")].sort());
  });

  it("subscription cycles: each SubscriptionCycle is accepted, another is refused naming them", async () => {
    const sim = account();
    const customer = (await createCustomer(sim)).id;
    const base = { customer, billingType: "PIX", value: 10, nextDueDate: dateIn(5) };
    for (const cycle of values("SubscriptionCycle")) {
      const created = await sim.json<SimRecord>("POST", "/v3/subscriptions", { ...base, cycle });
      expect([created.status, created.body.cycle]).toEqual([200, cycle]);
    }
    const refused = await sim.json<Answer>("POST", "/v3/subscriptions", { ...base, cycle: "DAILY" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]?.description).toContain(values("SubscriptionCycle").join(", "));
  });

  it("external Pix keys: each PixAddressKeyType is looked up, another is refused naming them", async () => {
    const sim = account();
    const found = await sim.json<SimRecord>(
      "GET",
      `/v3/pix/addressKeys/external?key=ana%40example.com&type=${values("PixAddressKeyType")[2]}`,
    );
    expect([found.status, found.body.type]).toEqual([200, "EMAIL"]);
    const refused = await sim.json<Answer>("GET", "/v3/pix/addressKeys/external?key=x&type=IBAN");
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({
      code: "invalid_type",
      description: expect.stringContaining("CPF, CNPJ, EMAIL, PHONE, EVP"),
    });
  });
});
