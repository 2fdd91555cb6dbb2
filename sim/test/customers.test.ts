import { describe, expect, it } from "vitest";
import { account, createCustomer } from "./helpers";
import type { Answer, SimList, Deleted } from "./helpers";
import type { Customer } from "../src/state";

describe("customers", () => {
  it("creates with the upstream shape", async () => {
    const customer = await createCustomer(account(), { externalReference: "ext-1", cpfCnpj: "249.715.637-92" });
    expect(customer).toMatchObject({
      object: "customer",
      name: "Maria Silva",
      cpfCnpj: "24971563792",
      personType: "FISICA",
      deleted: false,
      externalReference: "ext-1",
    });
    expect(customer.id).toMatch(/^cus_[a-z0-9]{12,}$/);
    expect(customer.dateCreated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("requires name and cpfCnpj", async () => {
    const sim = account();
    const noName = await sim.json<Answer<Customer>>("POST", "/v3/customers", { cpfCnpj: "24971563792" });
    expect(noName.status).toBe(400);
    expect(noName.body.errors[0]!.code).toBe("invalid_name");
    const noDoc = await sim.json<Answer<Customer>>("POST", "/v3/customers", { name: "X" });
    expect(noDoc.status).toBe(400);
    expect(noDoc.body.errors[0]!.code).toBe("invalid_cpfCnpj");
    const badDoc = await sim.json<Answer<Customer>>("POST", "/v3/customers", { name: "X", cpfCnpj: "123" });
    expect(badDoc.status).toBe(400);
  });

  it("gets, updates, filters, deletes (soft) and restores", async () => {
    const sim = account();
    const c = await createCustomer(sim, { email: "a@x.com", externalReference: "r1" });
    await createCustomer(sim, { name: "Outro", cpfCnpj: "11222333000181", email: "b@x.com" });

    expect((await sim.json<Answer<Customer>>("GET", `/v3/customers/${c.id}`)).body.id).toBe(c.id);
    const updated = await sim.json<Answer<Customer>>("PUT", `/v3/customers/${c.id}`, { name: "Maria Souza", phone: "1133334444" });
    expect(updated.body).toMatchObject({ name: "Maria Souza", phone: "1133334444", cpfCnpj: "24971563792" });

    const byName = await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?name=souza");
    expect(byName.body.data.map((x: { id: unknown }) => x.id)).toEqual([c.id]);
    expect((await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?email=b@x.com")).body.data[0]!.personType).toBe("JURIDICA");
    expect((await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?cpfCnpj=24971563792")).body.totalCount).toBe(1);
    expect((await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?externalReference=r1")).body.totalCount).toBe(1);

    const del = await sim.json<Answer<Deleted>>("DELETE", `/v3/customers/${c.id}`);
    expect(del.body).toEqual({ deleted: true, id: c.id });
    expect((await sim.json<Answer<Customer>>("GET", `/v3/customers/${c.id}`)).body.deleted).toBe(true);
    expect((await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(1);

    const restored = await sim.json<Answer<Customer>>("POST", `/v3/customers/${c.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.deleted).toBe(false);
    expect((await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(2);
  });

  it("answers 404 for an unknown customer", async () => {
    const res = await account().json<Answer<Customer>>("GET", "/v3/customers/cus_doesnotexist1");
    expect(res.status).toBe(404);
    expect(res.body.errors[0]!.code).toBe("not_found");
  });
});
