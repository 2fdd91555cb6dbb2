#!/usr/bin/env node
// Browser test of the API reference (/api/v1/docs): drives Debian's chromium (playwright-core, no
// browser download) against `wrangler dev --env local` on a free port with a throw-away D1 state
// directory. Opens the reference, expands an operation and checks its permission, request schema,
// example and error examples render; authorizes with a test key, runs try-it, reloads and finds the
// key kept. Fails on any page error or console error (a CSP violation is one) and on any request
// that leaves localhost (every request is intercepted; others are aborted and reported).
// Needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it). Screenshots: test-results/screenshots/.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHOTS = join(ROOT, "test-results", "screenshots");
const OVERALL_TIMEOUT_MS = 900_000;
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const cleanups = [];
let failed = false;
let passedChecks = 0;
const log = (msg) => console.log(`[docs.e2e] ${msg}`);
function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
  passedChecks++;
  log(`ok - ${message}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/api/v1/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("wrangler dev did not become healthy in time");
}

async function startWorker() {
  const persist = mkdtempSync(join(tmpdir(), "ponte-docs-e2e-state-"));
  cleanups.push(() => rmSync(persist, { recursive: true, force: true }));
  // node_modules/.bin first: wrangler needs the pinned Node 22 (the `node` devDependency), not an older system node.
  const env = {
    ...process.env,
    PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    NO_UPDATE_NOTIFIER: "1",
  };
  execFileSync(process.execPath, [join(ROOT, "sim", "build.mjs")], { cwd: ROOT, stdio: "ignore" });
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-assets.mjs")], { cwd: ROOT, stdio: "inherit" });
  execFileSync(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--env", "local", "--persist-to", persist], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const args = ["dev", "-c", "wrangler.toml", "-c", "sim/wrangler.toml", "--env", "local", "--port", String(port), "--ip", "127.0.0.1"];
  const dev = spawn(WRANGLER, [...args, "--persist-to", persist, "--show-interactive-dev-session=false"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let devOutput = "";
  dev.stdout.on("data", (d) => (devOutput += d));
  dev.stderr.on("data", (d) => (devOutput += d));
  cleanups.push(async () => {
    if (dev.exitCode !== null) return;
    try {
      process.kill(-dev.pid, "SIGINT");
    } catch {
      /* already gone */
    }
    await Promise.race([new Promise((r) => dev.once("exit", r)), new Promise((r) => setTimeout(r, 5000))]);
    if (dev.exitCode === null) process.kill(-dev.pid, "SIGKILL");
  });
  try {
    await waitForHealth(base, Date.now() + 90_000);
  } catch (err) {
    console.error(devOutput.slice(-4000));
    throw err;
  }
  log(`wrangler dev is up at ${base}`);
  return base;
}

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
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run scripts/ensure-chromium.sh (apt-get install chromium)`);
  mkdirSync(SHOTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "ponte-docs-e2e-profile-"));
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  const base = await startWorker();
  const key = await testKey(base);

  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1360, height: 1000 },
  });
  cleanups.unshift(() => context.close());
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
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(60_000);
  const jsErrors = [];
  page.on("pageerror", (err) => jsErrors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") jsErrors.push(`console.error: ${msg.text()}`);
  });
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

let stopping;
/** Runs the cleanups once: the overall timer and main's end may both ask, and the second must wait for the first. */
function shutdown() {
  stopping ??= stop();
  return stopping;
}

async function stop() {
  for (const fn of cleanups.splice(0)) {
    try {
      await fn();
    } catch {
      /* best effort */
    }
  }
  clearTimeout(timer);
  console.log(`browser (docs): ${passedChecks} passed, ${failed ? 1 : 0} failed`);
  process.exit(failed ? 1 : 0);
}

const timer = setTimeout(() => {
  console.error(`[docs.e2e] timed out after ${OVERALL_TIMEOUT_MS / 1000}s`);
  failed = true;
  void shutdown();
}, OVERALL_TIMEOUT_MS);

main()
  .then(() => log("all checks passed"))
  .catch((err) => {
    failed = true;
    console.error(`[docs.e2e] FAILED: ${err.stack ?? err}`);
  })
  .finally(shutdown);
