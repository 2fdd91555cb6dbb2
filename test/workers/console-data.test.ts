// Console data pages (issue 17.4) over the same services as the API: customers, payments (filters, status timeline,
// cancel and refund forms), subscriptions, plans, gateway call log, audit log — paginated and permission-aware.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedMember } from "./auth-support";
import { type BillingTenant, createCustomer, createPayment, seedBillingTenant } from "./billing-support";
import { BASE } from "./support";

const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
const post = (path: string, cookie: string, fields: Record<string, string> = {}, origin = BASE) =>
  SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: origin, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });

let tenant: BillingTenant;
let owner: string;
let viewer: string;
let paymentId: string;
let customerId: string;

beforeAll(async () => {
  tenant = await seedBillingTenant({ webhooks: false });
  owner = (await seedMember(tenant.organizationId, "owner")).cookie;
  viewer = (await seedMember(tenant.organizationId, "viewer")).cookie;
  customerId = (await createCustomer(tenant, { name: "Maria Data" })).id;
  const res = await createPayment(tenant, customerId, { value: "123.45" });
  if (res.status !== 200) throw new Error(`payment create failed: ${res.status} ${JSON.stringify(res.body)}`);
  paymentId = res.body.data.id;
});

describe("console data pages", () => {
  it("links every data page from the navigation", async () => {
    const html = await (await page("/console", owner)).text();
    for (const path of ["customers", "payments", "subscriptions", "plans", "gateway-logs", "audit"])
      expect(html).toContain(`href="/console/${path}"`);
  });

  it("lists and filters customers, and pages through them", async () => {
    const all = await page("/console/customers", owner);
    expect(all.status).toBe(200);
    const html = await all.text();
    expect(html).toContain("Maria Data");
    expect(html).toContain(`/console/payments?customer=${customerId}`);
    expect(await (await page("/console/customers?name=Nobody", owner)).text()).toContain("Nothing matches.");

    for (let i = 0; i < 25; i++) await createCustomer(tenant, { name: `Paged ${String(i).padStart(2, "0")}` });
    const first = await (await page("/console/customers", owner)).text();
    expect(first).toContain("26 records · page 1 of 2");
    expect(first).toContain('href="/console/customers?page=2"');
    const second = await (await page("/console/customers?page=2", owner)).text();
    expect(second).toContain("page 2 of 2");
    expect(second).toContain("Maria Data"); // the oldest, alone on page 2
    expect(second).not.toContain("Paged 24");
  }, 30_000); // 25 customers through the API and the simulator: slow on a loaded machine

  it("lists payments with filters and shows one with its status timeline", async () => {
    const list = await (await page("/console/payments", owner)).text();
    expect(list).toContain(`/console/payments/${paymentId}`);
    expect(list).toContain("R$ 123.45");
    expect(await (await page("/console/payments?status=RECEIVED", owner)).text()).not.toContain(paymentId);
    expect(await (await page(`/console/payments?customer=${customerId}&billingType=PIX`, owner)).text()).toContain(paymentId);

    const detail = await page(`/console/payments/${paymentId}`, owner);
    expect(detail.status).toBe(200);
    const html = await detail.text();
    expect(html).toContain("Status timeline");
    expect(html).toContain("<code>payment.created</code>");
    expect(html).toContain("Cancel payment");
    expect(html).not.toContain(">Refund<"); // a pending PIX charge cannot be refunded
  });

  it("a viewer sees no actions and is refused them; pages without their permission are 403", async () => {
    const html = await (await page(`/console/payments/${paymentId}`, viewer)).text();
    expect(html).toContain("payment.created");
    expect(html).not.toContain("Cancel payment");
    expect((await post(`/console/payments/${paymentId}/cancel`, viewer)).status).toBe(403);
    expect((await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(paymentId).first<{ status: string }>())?.status).toBe(
      "PENDING",
    );
    const audit = await page("/console/audit", viewer);
    expect(audit.status).toBe(403);
    expect(await audit.text()).toContain("audit_logs.read");
  });

  it("refuses a cross-site cancel, refuses a refund of a pending charge in words, then cancels", async () => {
    expect((await post(`/console/payments/${paymentId}/cancel`, owner, {}, "https://evil.example")).status).toBe(403);
    const refund = await post(`/console/payments/${paymentId}/refund`, owner, { value: "10.00" });
    expect(refund.status).toBe(409);
    expect(await refund.text()).toContain("alert");

    const res = await post(`/console/payments/${paymentId}/cancel`, owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Payment canceled.");
    expect(html).toContain("<code>payment.canceled</code>");
    expect((await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(paymentId).first<{ status: string }>())?.status).toBe(
      "CANCELED",
    );
    expect(await (await page("/console/payments?status=CANCELED", owner)).text()).toContain(paymentId);
  });

  it("shows the gateway call log, the audit log, subscriptions and plans", async () => {
    const gateway = await (await page("/console/gateway-logs?operationId=native%3Acreate-payment", owner)).text();
    expect(gateway).toContain("1 record · page 1 of 1");
    expect(gateway).toContain("POST /v3/payments");
    expect(await (await page("/console/gateway-logs?status=599", owner)).text()).toContain("Nothing matches.");
    const audit = await page("/console/audit", owner);
    expect(audit.status).toBe(200);
    expect(await audit.text()).toContain("<h1>Audit log</h1>");
    for (const path of ["/console/subscriptions", "/console/plans"]) {
      const res = await page(path, owner);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Nothing matches.");
    }
  });
});
