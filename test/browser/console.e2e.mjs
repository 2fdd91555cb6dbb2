#!/usr/bin/env node
// Browser test of the developer console: drives Debian's chromium (playwright-core, no browser
// download) against `wrangler dev --env local` on a free port with a throw-away D1 state directory.
// Fails non-zero on any failed step or any JavaScript error / console error on a page.
// Needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it). Screenshots: test-results/screenshots/.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import { browserRun, openPage, SHOTS } from "./harness.mjs";

// The analytics and data pages and the demo walk add page loads; a shared, loaded machine needs the room (E2E_TIMEOUT_MS overrides).
const OVERALL_TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 600_000);
// axe-core (WCAG 2.1 A/AA) runs on every page the test screenshots. Evaluated through the DevTools protocol rather
// than page.addScriptTag: the console's CSP admits only nonce'd scripts, and an injected <script> would be blocked.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const axeFindings = [];
let axePages = 0;

/** Runs axe on the page; records every serious or critical violation (checked once at the end). */
async function axeCheck(page, name) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags } }), AXE_TAGS);
  axePages++;
  for (const v of result.violations) {
    if (v.impact !== "serious" && v.impact !== "critical") continue;
    const targets = v.nodes
      .slice(0, 3)
      .map((n) => n.target.join(" "))
      .join("; ");
    axeFindings.push(`${name} ${new URL(page.url()).pathname}: ${v.id} (${v.impact}, ${v.nodes.length} nodes: ${targets})`);
  }
}
const { log, check, cleanup, startWorker, openBrowser, run } = browserRun("console", { timeoutMs: OVERALL_TIMEOUT_MS });

/** A local webhook receiver: records each request with its raw body. */
async function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("received");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  cleanup(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${server.address().port}/hooks/ponte`, received };
}

async function main() {
  // The demo history, as `npm start` writes it: the printed demo sign-in must land on a dashboard with a year in it.
  const { baseUrl: base, consoleSignIn } = await startWorker({ demoHistory: true });
  const context = await openBrowser({ width: 1280, height: 900 });
  const { page, jsErrors } = await openPage(context, { timeoutMs: 15_000 });
  const shot = async (name) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    await axeCheck(page, name);
  };

  // 0. The living demo: sign in with what `npm start` prints, walk every sidebar group at 1280 and at 390 px.
  await demoFlow(page, base, shot, consoleSignIn);
  await dashboardDesignFlow(page, base, shot, consoleSignIn);

  // 1. Unauthenticated: the console sends us to sign in.
  await page.goto(`${base}/console`);
  check(page.url().endsWith("/console/sign-in"), "an anonymous visit lands on the sign-in page");
  await shot("01-sign-in");

  // 2. Sign up.
  await page.getByRole("link", { name: "Create an account" }).click();
  const email = `e2e-${Date.now()}@example.com.br`;
  const password = "e2e password 12345";
  await page.getByLabel("Your name").fill("Ana E2E");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Organization (your company)").fill("Loja E2E");
  await shot("02-sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/console/dashboard`);
  check((await page.locator("h1").textContent()).includes("Dashboard"), "sign-up lands on the dashboard");
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await page.waitForURL(`${base}/console`);
  check((await page.locator("h1").textContent()).includes("Loja E2E"), "the overview names the new organization");
  const cookies = await context.cookies(base);
  const session = cookies.find((c) => c.name === "ponte_session");
  check(
    session?.httpOnly && session.secure && session.sameSite === "Lax" && session.path === "/",
    "ponte_session cookie is HttpOnly, Secure, SameSite=Lax, Path=/",
  );
  await shot("03-overview");

  // 3. API key: create, see the secret once, it works, it is not shown again.
  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await page.getByLabel("Name", { exact: true }).fill("e2e server key");
  await page.getByLabel("api_keys.read").check();
  await page.getByLabel("webhook_endpoints.manage").check();
  await page.getByLabel("customers.manage").check();
  await page.getByLabel("payments.manage").check();
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = await page.locator("#new-key-secret").inputValue();
  check(/^ponte_test_[0-9A-Za-z]{40}$/.test(secret), "the new key's secret is shown once");
  await page.getByRole("button", { name: "Copy" }).click();
  await shot("04-api-key-created");
  const apiRes = await fetch(`${base}/api/v1/api-keys`, { headers: { Authorization: `Bearer ${secret}` } });
  check(apiRes.status === 200, "the new key authenticates against the API");
  await page.goto(`${base}/console/api-keys`);
  check(!(await page.content()).includes(secret), "the secret is not shown again on the list");
  check((await page.locator("table").textContent()).includes("e2e server key"), "the key is listed");
  await shot("05-api-keys");

  // 4. Webhooks (when the console has the pages): create, secret once, Test → signed ping arrives, log shows it.
  const hasWebhooks = (await page.getByRole("link", { name: "Webhook endpoints", exact: true }).count()) > 0;
  if (hasWebhooks) await webhookFlow(page, base, shot);
  else log("skip - webhook pages are not in this build");

  // 5. Gateway account: connect an upstream key, token once, Verify → active; then a payment shows on the overview.
  await gatewayFlow(page, base, shot, secret);

  // 5b. Analytics and cost categories: dashboard chart, metrics explorer, formulas with live validation, the category tree.
  await analyticsFlow(page, base, shot);

  // 6. Team: invite a colleague (link once), they join from the link, the owner changes their role, revokes another invitation, removes them.
  await teamFlow(page, base, shot, email, password);

  // 7. Finance: add a supplier, record a USD expense at its rate, filter, mark it paid.
  await financeFlow(page, base, shot);
  await expenseEditFlow(page, base, shot);
  await awsAndProfitabilityFlow(page, base, shot);
  // 7b. The data pages: customers, payments (and one payment with its timeline), subscriptions, plans, gateway log, audit.
  for (const [i, path] of ["customers", "payments", "subscriptions", "plans", "gateway-logs", "audit"].entries()) {
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", {
        name: {
          customers: "Customers",
          payments: "Payments",
          subscriptions: "Subscriptions",
          plans: "Plans",
          "gateway-logs": "Gateway log",
          audit: "Audit log",
        }[path],
        exact: true,
      })
      .click();
    await page.waitForURL(`${base}/console/${path}`);
    check((await page.locator("h1").count()) === 1, `the ${path} page renders`);
    await shot(`data-${i + 1}-${path}`);
    if (path === "payments" && (await page.locator("tbody a").count()) > 0) {
      await page.locator("tbody a").first().click();
      check((await page.getByText("Status timeline").count()) === 1, "a payment shows its status timeline");
      await shot("data-2b-payment");
    }
  }
  check(
    axeFindings.length === 0,
    `axe (WCAG 2.1 A/AA) finds no serious or critical violation on ${axePages} page views${axeFindings.length ? `:\n  ${axeFindings.join("\n  ")}` : ""}`,
  );

  // 8. Keyboard only: sign out, then sign in with Tab/typing/Enter.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${base}/console/sign-in`);
  await page.goto(`${base}/console/sign-in`);
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // brand
  await page.keyboard.press("Tab");
  check((await page.evaluate(() => document.activeElement?.id)) === "email", "Tab reaches the email field");
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await page.waitForURL(`${base}/console/dashboard`);
  check(true, "signed back in using only the keyboard");

  // Browsers ask for /favicon.ico on their own, at a moment of their choosing: a 404 there was an intermittent
  // "Failed to load resource" above. It is a static asset (public/favicon.ico).
  const favicon = await page.request.get(`${base}/favicon.ico`);
  check(
    favicon.status() === 200 && (favicon.headers()["content-type"] ?? "").includes("icon"),
    `/favicon.ico is served (${favicon.status()} ${favicon.headers()["content-type"]})`,
  );

  check(jsErrors.length === 0, `no JavaScript errors on any page${jsErrors.length ? `: ${jsErrors.join(" | ")}` : ""}`);
}

/** The sidebar's groups and links as rendered (label, [href, name]). */
const sidebarGroups = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("#console-nav .nav-group")].map((g) => ({
      label: g.querySelector(".nav-heading").textContent,
      links: [...g.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent]),
    })),
  );

async function demoFlow(page, base, shot, signIn) {
  check(Boolean(signIn?.email && signIn.password), "the seed printed a console sign-in for the demo organization");
  await page.goto(`${base}/console`);
  await page.getByLabel("Email", { exact: true }).fill(signIn.email);
  await page.getByLabel("Password", { exact: true }).fill(signIn.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/console/dashboard`);
  check((await page.locator("h1").textContent()).includes("Dashboard"), "the demo sign-in lands on the dashboard");
  const revenue = (await page.locator("[data-card]").first().textContent()) ?? "";
  check(/R\$ [1-9][\d,]*\.\d{2}/.test(revenue), `the demo dashboard has history (first card: ${revenue.replace(/\s+/g, " ").trim()})`);
  await chartDrawn(page, "#revenue-vs-expenses", "demo dashboard");
  await shot("00-demo-dashboard");

  const groups = await sidebarGroups(page);
  check(groups.map((g) => g.label).join(",") === "Home,Billing,Finance,Analytics,Developers,Settings", "the sidebar has its six groups");
  for (const group of groups) {
    for (const [i, [href, name]] of group.links.entries()) {
      const nav = page.getByRole("navigation", { name: "Console" });
      await nav.getByRole("link", { name, exact: true }).click();
      await page.waitForURL(`${base}${href}`);
      if (href.startsWith("/api/")) {
        check((await page.title()).length > 0, `${group.label} › ${name} opens the API reference`);
        await page.goBack();
        continue;
      }
      check((await page.locator("h1").count()) === 1, `${group.label} › ${name} renders`);
      const current = await page.locator('#console-nav [aria-current="page"]').getAttribute("href");
      check(current === href, `${group.label} › ${name} is marked as the current page`);
      // axe on each group's first page (the pages after sign-up get theirs below) and on the pages only this walk sees.
      if (i === 0) await shot(`00-demo-${group.label.toLowerCase()}-1280`);
      else if (["/console/listen", "/console/workspaces"].includes(href)) await axeCheck(page, `demo ${name}`);
    }
  }

  // 390 px: the sidebar folds behind "Menu"; the keyboard opens it and reaches a link.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/console/payments`);
  const firstLink = page.locator("#console-nav a").first();
  check(!(await firstLink.isVisible()), "at 390 px the sidebar starts folded");
  await shot("00-demo-390-folded");
  await page.locator("#nav-toggle").focus();
  await page.keyboard.press("Space");
  check(await firstLink.isVisible(), "at 390 px Space on the Menu toggle opens the sidebar");
  await shot("00-demo-390-menu");
  for (const group of groups) {
    const [href, name] = group.links[0];
    await page.goto(`${base}/console/payments`);
    await page.locator("#nav-toggle").check();
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true }).click();
    await page.waitForURL(`${base}${href}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 390, `${group.label} › ${name} fits 390 px (${width} px wide)`);
    await shot(`00-demo-${group.label.toLowerCase()}-390`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${base}/console/sign-in`);
}

/**
 * The Dashboard as designed (issue 27 #2), on the demo history: three charts each with its captioned table, cards
 * that link to their explanation, the rankBy toggle; at 1280 and at 390 px, axe on both. Signs in and out itself.
 */
async function dashboardDesignFlow(page, base, shot, signIn) {
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(signIn.email);
  await page.getByLabel("Password", { exact: true }).fill(signIn.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/console/dashboard`);
  await chartDrawn(page, "#revenue-vs-expenses", "dashboard revenue vs expenses (demo)");
  await chartDrawn(page, "#mrr-history", "dashboard MRR over 12 months (demo)");
  check((await page.locator("#expenses-by-category svg rect").count()) > 0, "the expenses-by-category bars are drawn");
  for (const table of ["revenue-vs-expenses", "mrr-history", "expenses-by-category"])
    check((await page.locator(`table[data-table="${table}"] caption`).count()) === 1, `the ${table} chart has a captioned table`);
  const cards = await page.locator("[data-card]").count();
  check((await page.locator("[data-card] a[href]").count()) === cards, "every dashboard card links to the page explaining it");
  await shot("00-dashboard-design-1280");
  await page.locator("[data-rank-toggle]").getByRole("link", { name: "MRR" }).click();
  await page.waitForURL(/rankBy=mrr/);
  check((await page.getByRole("heading", { name: "Top customers by MRR" }).count()) === 1, "the toggle ranks the top lists by MRR");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/console/dashboard`);
  await chartDrawn(page, "#mrr-history", "dashboard MRR at 390 px");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the dashboard fits 390 px (${width} px wide)`);
  await shot("00-dashboard-design-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${base}/console/sign-in`);
}

/** uPlot drew into the chart: a canvas with a non-zero size inside the figure. */
async function chartDrawn(page, selector, what) {
  const canvas = page.locator(`${selector} canvas`).first();
  await canvas.waitFor();
  const size = await canvas.evaluate((c) => ({ w: c.width, h: c.height }));
  check(size.w > 0 && size.h > 0, `${what}: the chart canvas is drawn (${size.w}×${size.h})`);
}

async function analyticsFlow(page, base, shot) {
  await page.getByRole("link", { name: "Dashboard", exact: true }).click();
  await page.waitForURL(`${base}/console/dashboard`);
  check((await page.locator("[data-card]").count()) >= 6, "the dashboard shows its cards");
  await chartDrawn(page, "#revenue-vs-expenses", "dashboard revenue vs expenses");
  await shot("16-dashboard");

  await page.getByRole("link", { name: "Metrics", exact: true }).click();
  await page.getByLabel("Metric", { exact: true }).selectOption("billed");
  await page.getByLabel("Interval", { exact: true }).selectOption("week");
  await page.getByRole("button", { name: "Show" }).click();
  await page.waitForURL(/\/console\/metrics\?metric=billed/);
  // The payment created through the API (gateway step) is billed today: 42.50.
  check((await page.locator("[data-total]").textContent()).includes("R$ 42.50"), "the explorer totals billed to the cent");
  await chartDrawn(page, "#metric-series", "metrics explorer");
  await shot("17-metrics-explorer");

  await page.getByRole("link", { name: "Formulas", exact: true }).click();
  const box = page.getByLabel("Expression", { exact: true });
  await box.fill("revenue * (2 +");
  const status = page.locator("#formula-expression-status");
  await status.locator(".badge.bad").waitFor();
  check(/position \d+/.test(await status.textContent()), "live validation names the error's position");
  check((await status.locator("pre").textContent()).includes("^"), "a caret marks the position under the expression");
  check((await box.getAttribute("aria-invalid")) === "true", "the expression box is marked invalid");
  await shot("18-formula-invalid");
  await box.fill("(billed - expenses) / billed * 100");
  await status.locator(".badge.ok").waitFor();
  check((await status.textContent()).includes("billed — metric Billed"), "a valid expression lists what each variable refers to");
  await page.getByLabel("Key", { exact: true }).fill("billed_margin");
  await page.getByLabel("Name", { exact: true }).fill("Billed margin");
  await page.getByLabel("Unit", { exact: true }).selectOption("PERCENT");
  await page.getByRole("button", { name: "Create formula" }).click();
  await page.waitForURL(/\/console\/formulas\/[0-9a-f-]{36}\?done=created$/);
  check((await page.locator("main").textContent()).includes("Formula created."), "the formula is created");
  await chartDrawn(page, "#formula-series", "formula series");
  await shot("19-formula");

  await page.getByRole("link", { name: "Cost categories", exact: true }).click();
  check((await page.locator("main table").textContent()).includes("expenses.infrastructure"), "the default categories are listed");
  await page.getByLabel("Name", { exact: true }).fill("Cloud hosting");
  await page.getByLabel("Parent", { exact: true }).selectOption({ label: "Infrastructure" });
  await page.getByRole("button", { name: "Create category" }).click();
  check(
    (await page.locator("main").textContent()).includes("Created Cloud hosting (expenses.cloud_hosting)."),
    "a child category is created",
  );
  await page.getByRole("button", { name: "Archive Cloud hosting" }).click();
  check((await page.locator('tr[data-category="cloud_hosting"]').textContent()).includes("archived"), "the category is archived");
  await shot("20-cost-categories");
}

async function webhookFlow(page, base, shot) {
  const receiver = await startReceiver();
  await page.getByRole("link", { name: "Webhook endpoints", exact: true }).click();
  await page.getByLabel("URL", { exact: true }).fill(receiver.url);
  const ping = page.getByLabel("ping");
  if (await ping.count()) await ping.check();
  await page.getByRole("button", { name: "Create endpoint" }).click();
  const secret = await page.locator("#new-endpoint-secret").inputValue();
  check(/^whsec_/.test(secret), "the endpoint's signing secret is shown once");
  await shot("06-webhook-created");
  await page.getByRole("link", { name: receiver.url }).first().click();
  await page.getByRole("button", { name: "Send test ping" }).click();
  const result = (await page.locator("[data-test-result]").textContent()) ?? "";
  check(
    result.includes("delivered") && /Status code: 200/.test(result) && /\d+ ms/.test(result),
    "Test shows the attempt's status (200) and timing",
  );
  await shot("07-webhook-tested");
  const deadline = Date.now() + 15_000;
  while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  check(receiver.received.length > 0, "the ping reached the local receiver");
  const delivery = receiver.received[0];
  const header = String(delivery.headers["x-service-signature"] ?? "");
  const t = /t=(\d+)/.exec(header)?.[1];
  const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
  const expected = createHmac("sha256", secret).update(`${t}.`).update(delivery.body).digest("hex");
  check(
    t && v1 && timingSafeEqual(Buffer.from(v1), Buffer.from(expected)),
    "the ping's X-Service-Signature verifies with the secret (HMAC-SHA256 of t.body)",
  );
  check(JSON.parse(delivery.body.toString("utf8")).type === "ping", "the delivered event is a ping");
  await page.getByRole("link", { name: "Webhook log", exact: true }).click();
  check((await page.locator("main").textContent()).includes("ping"), "the ping appears in the webhook log");
  await shot("08-webhook-log");
  await page.locator("main table a").first().click();
  const detail = (await page.locator("main").textContent()) ?? "";
  check(
    detail.includes("succeeded") && detail.includes("200") && detail.includes("received"),
    "the delivery page lists the attempt with status code and response excerpt",
  );
  await shot("09-webhook-delivery");
  void base;
}

async function gatewayFlow(page, base, shot, apiKey) {
  await page.getByRole("link", { name: "Gateway account", exact: true }).click();
  await page.waitForURL(`${base}/console/gateway`);
  check(
    (await page.locator("main").textContent()).includes("no gateway account"),
    "the gateway page says the workspace has no account yet",
  );
  const upstreamKey = `$aact_hmlg_browser_${randomBytes(8).toString("hex")}`;
  await page.getByLabel("Upstream API key").fill(upstreamKey);
  await page.getByRole("button", { name: "Save key" }).click();
  const token = await page.locator("#inbound-webhook-token").inputValue();
  check(/^[A-Za-z0-9_-]{43}$/.test(token), "the inbound webhook token is shown once after connecting");
  const url = await page.locator("#inbound-webhook-url-once").inputValue();
  check(/\/api\/v1\/webhooks\/upstream\/[0-9a-f-]{36}$/.test(url), "the inbound webhook URL is shown with it");
  check(!(await page.content()).includes(upstreamKey), "the upstream key is not echoed back");
  await page.locator('[data-copy="inbound-webhook-token"]').click();
  await shot("10-gateway-connected");
  await page.goto(`${base}/console/gateway`);
  const reloaded = await page.content();
  check(!reloaded.includes(token) && reloaded.includes(`…${upstreamKey.slice(-4)}`), "a reload shows the key's last 4 but not the token");
  check(
    (await page.locator("[data-gateway-status]").getAttribute("data-gateway-status")) === "unverified",
    "the account starts not verified",
  );
  await page.getByRole("button", { name: "Verify" }).click();
  await page.locator('[data-gateway-status="active"]').waitFor();
  check(
    (await page.locator("main").textContent()).includes("Verified: the upstream accepted the key"),
    "Verify reports the account active in plain words",
  );
  await shot("11-gateway-verified");

  // A payment through the API (the key from step 3) appears on the overview.
  const api = (path, body) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const customer = await api("/api/v1/customers", { name: "Maria E2E", cpfCnpj: "529.982.247-25", email: "maria@example.com" });
  check(customer.status === 200, `a customer is created through the API (${customer.status})`);
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const payment = await api("/api/v1/payments", { customer: customer.body.data.id, billingType: "PIX", value: "42.50", dueDate });
  check(payment.status === 200, `a payment is created through the API (${payment.status})`);
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await page.waitForURL(`${base}/console`);
  const recent = (await page.locator('table[data-recent="payments"]').textContent()) ?? "";
  check(
    recent.includes(payment.body.data.id) && recent.includes("42.50") && recent.includes("PIX"),
    "the overview lists the payment with its value and billing type",
  );
  await shot("12-overview-with-payment");
}

async function teamFlow(page, base, shot, ownerEmail, ownerPassword) {
  await page.getByRole("link", { name: "Team", exact: true }).click();
  await page.waitForURL(`${base}/console/team`);
  check((await page.locator("main table").first().textContent()).includes(ownerEmail), "the Team page lists the owner");
  const colleague = `colleague-${Date.now()}@example.com.br`;
  await page.getByLabel("Email", { exact: true }).fill(colleague);
  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = await page.locator("#new-invitation-link").inputValue();
  check(new RegExp(`^${base}/console/invitations/accept\\?token=pinv_[A-Za-z0-9_-]{43}$`).test(link), "the invitation link is shown once");
  await shot("13-team-invited");
  await page.goto(`${base}/console/team`);
  check(!(await page.content()).includes(link.split("token=")[1]), "the invitation link is not shown again");
  check((await page.locator("main").textContent()).includes(colleague), "the invitation is listed as pending");

  // The colleague, in a signed-out browser, opens the link and creates their account.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${base}/console/sign-in`);
  await page.goto(link);
  check((await page.locator("h1").textContent()).includes("Join Loja E2E"), "the accept page names the organization");
  await page.getByLabel("Your name").fill("Colleague E2E");
  await page.getByLabel("Password", { exact: true }).fill("colleague password 1");
  await shot("14-invitation-accept");
  await page.getByRole("button", { name: "Create account and join" }).click();
  await page.waitForURL(`${base}/console`);
  check((await page.locator("h1").textContent()).includes("Loja E2E"), "the colleague lands in the organization");
  await page.getByRole("link", { name: "Team", exact: true }).click();
  check(
    (await page.locator("main table").first().textContent()).includes(colleague),
    "the colleague (admin) sees the team, themselves included",
  );
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${base}/console/sign-in`);

  // The owner changes the colleague's role, invites and revokes someone else, then removes the colleague.
  await page.getByLabel("Email", { exact: true }).fill(ownerEmail);
  await page.getByLabel("Password", { exact: true }).fill(ownerPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/console/dashboard`);
  await page.getByRole("link", { name: "Team", exact: true }).click();
  await page.getByLabel(`Role for ${colleague}`).selectOption("developer");
  await page.getByRole("button", { name: `Change role of ${colleague}` }).click();
  await page.waitForURL(`${base}/console/team?changed=1`);
  check((await page.getByLabel(`Role for ${colleague}`).inputValue()) === "developer", "the owner changes the colleague's role");
  const other = `other-${Date.now()}@example.com.br`;
  await page.getByLabel("Email", { exact: true }).fill(other);
  await page.getByRole("button", { name: "Create invitation" }).click();
  await page.goto(`${base}/console/team`);
  await page.getByRole("button", { name: `Revoke invitation for ${other}` }).click();
  await page.waitForURL(`${base}/console/team?revoked=1`);
  check((await page.getByRole("button", { name: `Revoke invitation for ${other}` }).count()) === 0, "the owner revokes an invitation");
  await page.getByRole("button", { name: `Remove ${colleague}` }).click();
  await page.waitForURL(`${base}/console/team?removed=1`);
  check(!(await page.locator("main table").first().textContent()).includes(colleague), "the owner removes the colleague");
  await shot("15-team");
}

async function financeFlow(page, base, shot) {
  await page.getByRole("link", { name: "Suppliers", exact: true }).click();
  await page.waitForURL(`${base}/console/suppliers`);
  await page.getByLabel("Name", { exact: true }).fill("Hospedagem E2E Ltda");
  await page.getByLabel("CPF or CNPJ (optional)").fill("11.222.333/0001-81");
  await page.getByLabel("Default cost category").selectOption({ label: "Infrastructure" });
  await page.getByRole("button", { name: "Add supplier" }).click();
  await page.waitForURL(`${base}/console/suppliers?done=created`);
  check((await page.locator("table").textContent()).includes("11222333000181"), "the supplier is listed with its CNPJ");
  await shot("16-suppliers");

  await page.getByRole("link", { name: "Expenses", exact: true }).click();
  await page.waitForURL(`${base}/console/expenses`);
  await page.getByLabel("Description").fill("Cloud servers");
  await page.getByLabel("Amount").fill("100.00");
  await page.getByLabel("Currency").selectOption("USD");
  await page.getByLabel("Exchange rate (BRL per USD)").fill("5.4321");
  await page.getByLabel("Incurred on").fill("2026-11-02");
  await page.locator("#e-supplier").selectOption({ label: "Hospedagem E2E Ltda" });
  await page.getByRole("button", { name: "Record expense" }).click();
  await page.waitForURL(`${base}/console/expenses?done=created`);
  check((await page.locator("table").textContent()).includes("543.21"), "the USD expense shows its BRL amount to the cent");
  await page.getByLabel("Status").selectOption("PENDING");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.waitForURL(/status=PENDING/);
  await shot("17-expenses");
  await page
    .getByRole("button", { name: /^Mark paid/ })
    .first()
    .click();
  await page.waitForURL(`${base}/console/expenses?done=paid`);
  check((await page.locator("table").textContent()).includes("paid"), "marking the expense paid shows it as paid");
  await shot("18-expense-paid");
}

// 7a. Edit an expense through its edit page at 1280 px (the finance pages can do what the API can): the
// USD expense financeFlow recorded gets a new description and amount, converted at its own rate.
async function expenseEditFlow(page, base, shot) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/console/expenses`);
  await page.getByRole("link", { name: "Edit “Cloud servers” of 2026-11-02" }).click();
  await page.waitForURL(/\/console\/expenses\/[0-9a-f-]{36}\/edit$/);
  await page.getByLabel("Description").fill("Cloud servers (November)");
  await page.getByLabel("Amount").fill("120.00");
  await shot("18b-expense-edit");
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(`${base}/console/expenses?done=updated`);
  const table = await page.locator("table").textContent();
  check(table.includes("Cloud servers (November)") && table.includes("651.85"), "the edited expense shows its new amount at its rate");
  await shot("18c-expense-edited");
}

// AWS connections against the simulator's AWS: connect by role, verify, sync; a refused role shows its
// last error; then the profitability report.
async function awsAndProfitabilityFlow(page, base, shot) {
  const nav = () => page.getByRole("navigation", { name: "Console" });
  await nav().getByRole("link", { name: "AWS connections", exact: true }).click();
  await page.waitForURL(`${base}/console/aws-connections`);
  const connect = async (name, roleArn) => {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("How Ponte signs in").selectOption("ROLE");
    await page.getByLabel("Role ARN (role only)").fill(roleArn);
    await page.getByLabel("Exchange rate (BRL per USD)").fill("5.40");
    await page.getByRole("button", { name: "Connect" }).click();
    await page.waitForLoadState("load");
  };
  await connect("Production E2E", "arn:aws:iam::123456789012:role/PonteCostReader");
  await page.getByRole("button", { name: "Verify Production E2E" }).click();
  await page.waitForLoadState("load");
  await shot("21-aws-connection-verified");
  check(
    (await page.locator('[data-status="ACTIVE"]').count()) === 1,
    "verifying a role the simulator's AWS accepts makes the connection active",
  );
  await page.getByRole("button", { name: "Sync Production E2E" }).click();
  await page.waitForLoadState("load");
  check(!(await page.locator("table").textContent()).includes("through —"), "a sync imports the costs and shows the day it covered");
  await shot("22-aws-connection-synced");
  await connect("Denied E2E", "arn:aws:iam::000000000000:role/Nope");
  await page.getByRole("button", { name: "Verify Denied E2E" }).click();
  await page.waitForLoadState("load");
  check(
    (await page.locator("[data-last-error]").textContent())?.includes("AccessDenied"),
    "a refused role is FAILED with AWS's error shown",
  );
  await shot("23-aws-connection-failed");

  await nav().getByRole("link", { name: "Profitability", exact: true }).click();
  await page.waitForURL(`${base}/console/profitability`);
  check((await page.locator("h1").textContent()) === "Profitability", "the profitability report renders");
  await shot("24-profitability");
}

run(main);
