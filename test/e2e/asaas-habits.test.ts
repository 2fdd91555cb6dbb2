// Habits of Asaas integrations in other languages and hand-written clients, as HTTP (fetch, no library): the
// host-level base URL with `/v3/` in front of every path, the key header spelled `Access-Token`, POST for an
// update, paging with limit=100 until hasMore is false, and Bearer refused at the upstream's layout.
import { describe, expect, inject, it } from "vitest";

const { baseUrl, apiKey } = inject("ponte");

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { "Access-Token": apiKey }) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: (await res.json()) as Record<string, unknown> };
};

describe("Asaas client habits at the upstream's layout", () => {
  it("pages 120 customers with limit=100 and the Access-Token header until hasMore is false", async () => {
    const tag = `habits-${Date.now()}`;
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call("POST", "/v3/customers", { name: `Cliente ${batch * 20 + i}`, cpfCnpj: "52998224725", externalReference: tag }),
        ),
      );
    }
    const seen = new Set<string>();
    let offset = 0;
    for (;;) {
      const page = await call("GET", `/v3/customers?externalReference=${tag}&limit=100&offset=${offset}`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ object: "list", totalCount: 120, limit: 100, offset });
      for (const c of page.body.data as { id: string }[]) seen.add(c.id);
      if (!page.body.hasMore) break;
      offset += 100;
    }
    expect(seen.size).toBe(120);
  });

  it("updates with POST where the upstream documents PUT, and answers the updated record", async () => {
    const created = await call("POST", "/v3/customers", { name: "Ana", cpfCnpj: "52998224725" });
    const updated = await call("POST", `/v3/customers/${created.body.id}`, { name: "Ana Souza" });
    expect(updated).toMatchObject({ status: 200, body: { id: created.body.id, name: "Ana Souza" } });
  });

  it("answers errors in the upstream's shape with X-Request-Id; Bearer is not the dialect's scheme", async () => {
    const unknown = await call("GET", "/v3/no-such-resource");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      errors: [expect.objectContaining({ code: expect.any(String), description: expect.any(String) })],
    });
    expect(unknown.requestId).toBeTruthy();
    const bearer = await call("GET", "/v3/customers", undefined, { Authorization: `Bearer ${apiKey}` });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toMatchObject({ errors: [expect.objectContaining({ code: expect.any(String) })] });
  });
});
