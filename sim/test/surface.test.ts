// Auth, list shape and paging, GET-with-body, generic catalogue answers, 404 outside the catalogue.
import { describe, expect, it } from "vitest";
import { account, createCustomer, fetchSim } from "./helpers";
import type { Answer, AsaasErrors, SimList } from "./helpers";
import type { Customer, Payment } from "../src/state";

describe("auth", () => {
  it("rejects a missing access_token with the upstream 401 body", async () => {
    const res = await fetchSim("/v3/customers");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      errors: [{ code: "invalid_access_token", description: "A chave de API fornecida é inválida" }],
    });
  });

  it("rejects a token without the $aact_ prefix", async () => {
    const res = await fetchSim("/v3/customers", { headers: { access_token: "Bearer abc" } });
    expect(res.status).toBe(401);
  });

  it("accepts any $aact_ token and keeps accounts apart", async () => {
    const a = account();
    const b = account();
    await createCustomer(a);
    expect((await a.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(1);
    expect((await b.json<Answer<SimList<Customer>>>("GET", "/v3/customers")).body.totalCount).toBe(0);
  });
});

describe("lists", () => {
  it("uses the upstream envelope with offset/limit paging, newest first", async () => {
    const sim = account();
    for (let i = 0; i < 12; i++) await createCustomer(sim, { name: `Cliente ${i}` });
    const first = await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "list", hasMore: true, totalCount: 12, limit: 10, offset: 0 });
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]!.name).toBe("Cliente 11");
    const second = await sim.json<Answer<SimList<Customer>>>("GET", "/v3/customers?offset=10&limit=5");
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 12, limit: 5, offset: 10 });
    expect(second.body.data.map((c: { name: unknown }) => c.name)).toEqual(["Cliente 1", "Cliente 0"]);
  });

  it("refuses limit above 100 and below 1", async () => {
    const sim = account();
    for (const limit of ["101", "0", "abc"]) {
      const res = await sim.json<Answer<SimList<Payment>>>("GET", `/v3/payments?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]!.code).toBe("invalid_limit");
    }
    expect((await sim.json<Answer<SimList<Payment>>>("GET", "/v3/payments?limit=100")).status).toBe(200);
  });
});

describe("generic catalogue operations", () => {
  it("answers a collection GET with an empty list", async () => {
    const res = await account().json("GET", "/v3/installments?limit=20");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "list", hasMore: false, totalCount: 0, limit: 20, offset: 0, data: [] });
  });

  it("answers an item GET with an object echoing the path params", async () => {
    const res = await account().json("GET", "/v3/paymentLinks/pl_123/images/img_9");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "img_9", paymentLinkId: "pl_123", imageId: "img_9" });
  });

  it("prefers literal segments over parameters (/v3/payments/limits is not a payment id)", async () => {
    const res = await account().json<Answer<Payment>>("GET", "/v3/payments/limits");
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("payment");
    expect(res.body.id).toMatch(/^pay_/);
  });

  it("echoes a POST body with a generated id; PUT keeps the path id; DELETE answers deleted", async () => {
    const sim = account();
    const post = await sim.json<{ id: string }>("POST", "/v3/transfers", { value: 10, pixAddressKey: "a@b.c" });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ object: "transfer", value: 10, pixAddressKey: "a@b.c" });
    expect(post.body.id).toMatch(/^tra_[a-z0-9]{12,}$/);
    const put = await sim.json("PUT", "/v3/invoices/inv_42/", { serviceDescription: "x" });
    expect(put.body).toMatchObject({ id: "inv_42", serviceDescription: "x" });
    const del = await sim.json("DELETE", "/v3/pix/addressKeys/key_1");
    expect(del.body).toEqual({ deleted: true, id: "key_1" });
  });

  it("accepts multipart uploads and describes the files", async () => {
    const sim = account();
    const form = new FormData();
    form.append("availableAfterPayment", "true");
    form.append("type", "DOCUMENT");
    form.append("file", new File(["hello pdf"], "contrato.pdf", { type: "application/pdf" }));
    const res = await fetchSim("/v3/payments/pay_abc/documents", { method: "POST", headers: { access_token: sim.token }, body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; files: unknown[]; fields: Record<string, string> };
    expect(body.id).toBeTruthy();
    expect(body.files).toEqual([{ field: "file", name: "contrato.pdf", size: 9, type: "application/pdf" }]);
    expect(body.fields).toMatchObject({ type: "DOCUMENT", availableAfterPayment: "true" });
  });

  it("answers 404 not_found outside the catalogue", async () => {
    const sim = account();
    for (const [method, path] of [
      ["GET", "/v3/nothing"],
      ["PATCH", "/v3/customers/cus_1"],
      ["GET", "/v2/customers"],
    ] as const) {
      const res = await sim.json<AsaasErrors>(method, path);
      expect(res.status).toBe(404);
      expect(res.body.errors[0]!.code).toBe("not_found");
    }
  });
});
