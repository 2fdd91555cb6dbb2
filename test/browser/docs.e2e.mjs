#!/usr/bin/env node
// Browser test of the API reference (/api/v1/docs): drives Debian's chromium (playwright-core, no
// browser download) against `wrangler dev --env local` on a free port with a throw-away D1 state
// directory. Opens the reference, expands an operation and checks its permission, request schema,
// example and error examples render; authorizes with a test key, runs try-it, reloads and finds the
// key kept. Fails on any page error or console error (a CSP violation is one) and on any request
// that leaves localhost (every request is intercepted; others are aborted and reported).
// Needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it). Screenshots: test-results/screenshots/.
import { join } from "node:path";
import { browserRun, openPage, SHOTS } from "./harness.mjs";

const { check, startWorker, openBrowser, run } = browserRun("docs", { timeoutMs: 900_000 });

/** A test key that may read the organization: sign up through the API, then create the key with the session. */
async function testKey(base) {
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({
      email: `docs-${Date.now()}@example.com.br`,
      password: "docs e2e password 1",
      name: "Docs E2E",
      organizationName: "Loja Docs",
    }),
  });
  check(signup.status === 201 || signup.status === 200, `sign-up through the API (${signup.status})`);
  const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
  const created = await fetch(`${base}/api/v1/api-keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
    body: JSON.stringify({ name: "docs e2e", permissions: ["organizations.read"] }),
  });
  const body = await created.json();
  check(/^ponte_test_/.test(body.data?.secret ?? ""), `a test key is created (${created.status})`);
  return body.data.secret;
}

async function main() {
  const { baseUrl: base } = await startWorker();
  const key = await testKey(base);
  const context = await openBrowser({ width: 1360, height: 1000 });
  // Every request the page makes passes here: only this host's are let through.
  const offHost = [];
  const requested = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    requested.push(url.pathname);
    if (url.protocol === "data:" || url.protocol === "blob:" || (url.hostname === "localhost" && url.port === new URL(base).port)) {
      return route.continue();
    }
    offHost.push(url.href);
    return route.abort();
  });
  const { page, jsErrors } = await openPage(context, { timeoutMs: 60_000 });
  const shot = (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

  // 1. The reference renders the document from this host.
  const response = await page.goto(`${base}/api/v1/docs`, { timeout: 180_000 });
  const csp = response.headers()["content-security-policy"] ?? "";
  check(/script-src 'self'/.test(csp) && /default-src 'none'/.test(csp), "the page is served with a CSP admitting only 'self'");
  await page.locator(".swagger-ui .info .title").waitFor({ timeout: 300_000 });
  check((await page.locator(".swagger-ui .info .title").textContent()).includes("Ponte API"), "Swagger UI shows the document's title");
  check(requested.includes("/vendor/swagger-ui-dist/swagger-ui-bundle.js"), "the renderer is loaded from the worker's own assets");
  check(requested.includes("/api/v1/openapi.json"), "the generated document is fetched from /api/v1/openapi.json");
  await shot("docs-01-reference");

  // 2. Expand the refund operation under the payments group: permission, request schema, examples.
  const expand = async (tag, operationId) => {
    await page.locator(`#operations-tag-${tag}`).click();
    const block = page.locator(`#operations-${tag}-${operationId}`);
    await block.locator(".opblock-summary").first().click();
    await block.locator(".opblock-body").waitFor();
    return block;
  };
  const op = await expand("payments", "estornar-cobranca");
  const opText = await op.textContent();
  check(opText.includes("Permission:") && opText.includes("payments.manage"), "the operation states its permission");
  check(opText.includes("129.90"), "the request body example is shown");
  await op.locator(".opblock-section-request-body").getByRole("tab", { name: "Schema" }).click();
  const model = op.locator(".opblock-section-request-body .model-box");
  await model.waitFor();
  // Expanded to one level by default; a collapsed model opens with its toggle.
  if (!(await model.textContent()).includes("value")) await model.locator(".model-box-control, .model-toggle").first().click();
  const modelText = await model.textContent();
  check(
    modelText.includes("RefundPayment") && modelText.includes("value"),
    "the request body schema (RefundPayment) renders with its fields",
  );
  const responses = await op.locator(".responses-table").first().textContent();
  check(
    ["200", "400", "401", "403", "404", "409", "429"].every((s) => responses.includes(s)),
    "the responses list 200 and the errors",
  );
  check(
    responses.includes("requestId") && responses.includes("payments.manage"),
    "error responses show error-envelope examples (403 names the permission)",
  );
  await shot("docs-02-operation");

  // 3. Try-it with a test key: authorize, execute, reload, still authorized.
  await page
    .getByRole("button", { name: /Authorize/ })
    .first()
    .click();
  const dialog = page.locator(".dialog-ux .modal-ux");
  const bearer = dialog.locator(".auth-container").filter({ hasText: "bearerAuth" });
  await bearer.locator("input").fill(key);
  await bearer.getByRole("button", { name: "Apply credentials" }).click(); // Swagger UI's label for its Authorize button
  await bearer.getByRole("button", { name: "Remove authorization" }).waitFor();
  await page.locator(".dialog-ux .btn-done").first().click();
  const current = await expand("organizations", "organizations-get-current");
  await current.getByRole("button", { name: "Try it out" }).click();
  await current.getByRole("button", { name: "Execute" }).click();
  const live = current.locator(".live-responses-table .response .response-col_status").first();
  await live.waitFor();
  check((await live.textContent()).trim() === "200", "try-it with the test key answers 200");
  check((await current.locator(".live-responses-table").textContent()).includes("Loja Docs"), "try-it shows the organization's data");
  await shot("docs-03-try-it");
  await page.reload({ timeout: 180_000 });
  await page.locator(".swagger-ui .info .title").waitFor({ timeout: 300_000 });
  const stored = await page.evaluate(() => localStorage.getItem("authorized") ?? "");
  check(stored.includes("bearerAuth") && stored.includes(key), "the bearer key is kept across a reload (persistAuthorization)");

  check(offHost.length === 0, `no request leaves localhost${offHost.length ? `: ${offHost.join(", ")}` : ""}`);
  check(jsErrors.length === 0, `no JavaScript errors or CSP violations${jsErrors.length ? `: ${jsErrors.join(" | ")}` : ""}`);
}

run(main);
