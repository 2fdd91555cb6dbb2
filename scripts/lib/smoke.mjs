// The five-minute flow against any deployment, for `npm run smoke` (scripts/smoke.mjs) and test/e2e/smoke.test.ts:
// health and readiness, the key's organization, a customer, a PIX charge under an Idempotency-Key (sent twice: the
// same charge), its QR code, a webhook endpoint and its test ping (then deleted), a passthrough read, and the Asaas
// dialect at /v3. Each step is one line; the result is a summary. The key is sent only as a header, never printed.

/** A due date `days` from today (YYYY-MM-DD, UTC). */
const dueIn = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Runs every step in order (a step whose input an earlier failed step should have made is reported as skipped).
 * `say(line)` gets one line per step. Resolves to `{ ok, base, steps: [{ name, ok, status?, ms, detail }] }`.
 */
export async function runSmoke({ base, key, webhookUrl = "https://example.com/ponte-smoke", fetchImpl = fetch, say = () => {} }) {
  const origin = base.replace(/\/+$/, "");
  const steps = [];
  const ctx = {};
  const api = async (method, path, { body, headers = {}, auth = "bearer" } = {}) => {
    const h = { ...headers };
    if (auth === "bearer") h.Authorization = `Bearer ${key}`;
    if (auth === "asaas") h.access_token = key;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await fetchImpl(`${origin}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
  /** One step: `check` returns a short detail or throws with what was wrong. */
  const step = async (name, needs, check) => {
    const started = Date.now();
    const missing = needs.filter((n) => ctx[n] === undefined);
    let entry;
    if (missing.length > 0) entry = { name, ok: false, ms: 0, detail: `skipped: needs ${missing.join(", ")}` };
    else {
      try {
        entry = { name, ok: true, ms: 0, detail: await check() };
      } catch (err) {
        entry = { name, ok: false, ms: 0, detail: err instanceof Error ? err.message : String(err) };
      }
    }
    entry.ms = Date.now() - started;
    steps.push(entry);
    say(`${entry.ok ? "✓" : "✗"} ${name} (${entry.ms} ms): ${entry.detail}`);
  };
  const expectStatus = (res, status, what) => {
    const wanted = [status].flat();
    if (!wanted.includes(res.status))
      throw new Error(`${what}: HTTP ${res.status}, wanted ${wanted.join(" or ")}: ${res.text.slice(0, 300)}`);
    return res.json;
  };

  await step("health", [], async () => {
    const live = await api("GET", "/api/v1/health", { auth: "none" });
    expectStatus(live, 200, "GET /api/v1/health");
    const ready = await api("GET", "/api/v1/health/ready", { auth: "none" });
    expectStatus(ready, 200, "GET /api/v1/health/ready");
    return `live, ready (${ready.json?.data?.status ?? "ok"})`;
  });
  await step("organization", [], async () => {
    const org = expectStatus(await api("GET", "/api/v1/organizations/current"), 200, "GET /api/v1/organizations/current");
    ctx.organization = org.data.id;
    return `${org.data.name} (${org.data.id})`;
  });
  await step("customer", ["organization"], async () => {
    const body = { name: "Smoke Test", cpfCnpj: "52998224725", email: "smoke@example.com" };
    const customer = expectStatus(await api("POST", "/api/v1/customers", { body }), [200, 201], "POST /api/v1/customers");
    ctx.customer = customer.data.id;
    return customer.data.id;
  });
  await step("pix charge, idempotent", ["customer"], async () => {
    const idem = { "Idempotency-Key": `smoke-${crypto.randomUUID()}` };
    const body = { customer: ctx.customer, billingType: "PIX", value: "1.00", dueDate: dueIn(3) };
    const first = expectStatus(await api("POST", "/api/v1/payments", { body, headers: idem }), [200, 201], "POST /api/v1/payments");
    const again = expectStatus(await api("POST", "/api/v1/payments", { body, headers: idem }), [200, 201], "the same POST again");
    if (again.data.id !== first.data.id) throw new Error(`the repeated request made another charge (${again.data.id} ≠ ${first.data.id})`);
    ctx.payment = first.data.id;
    return `${first.data.id} ${first.data.status} ${first.data.value}, repeated → same charge`;
  });
  await step("pix qr code", ["payment"], async () => {
    const qr = expectStatus(await api("GET", `/api/v1/payments/${ctx.payment}/pix`), 200, "GET /api/v1/payments/{id}/pix");
    if (!/^000201/.test(qr.data.payload ?? "")) throw new Error("the copy-and-paste payload is not an EMV PIX code");
    if (!(qr.data.encodedImage?.length > 100)) throw new Error("no QR image");
    return `payload ${qr.data.payload.length} chars, image ${qr.data.encodedImage.length} chars`;
  });
  await step("webhook endpoint and test ping", ["organization"], async () => {
    const body = { url: webhookUrl, eventKinds: ["*"] };
    const endpoint = expectStatus(await api("POST", "/api/v1/webhook-endpoints", { body }), [200, 201], "POST /api/v1/webhook-endpoints");
    try {
      const ping = await api("POST", `/api/v1/webhook-endpoints/${endpoint.data.id}/test`);
      const attempt = expectStatus(ping, 200, "POST /api/v1/webhook-endpoints/{id}/test");
      return `ping sent to ${webhookUrl}: ${JSON.stringify(attempt.data).slice(0, 160)}`;
    } finally {
      await api("DELETE", `/api/v1/webhook-endpoints/${endpoint.data.id}`);
    }
  });
  await step("passthrough read", ["organization"], async () => {
    const balance = expectStatus(await api("GET", "/api/v1/finance/balance"), 200, "GET /api/v1/finance/balance");
    return `balance ${JSON.stringify(balance.data ?? balance).slice(0, 80)}`;
  });
  await step("asaas dialect at /v3", ["payment"], async () => {
    const list = expectStatus(await api("GET", "/v3/payments?limit=1", { auth: "asaas" }), 200, "GET /v3/payments (access_token)");
    if (list?.object !== "list") throw new Error(`not an Asaas list: ${JSON.stringify(list).slice(0, 200)}`);
    return `object list, totalCount ${list.totalCount}`;
  });

  return { ok: steps.every((s) => s.ok), base: origin, steps };
}
