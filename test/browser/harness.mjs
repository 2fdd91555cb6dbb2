// What every browser test shares: the local worker (scripts/lib/local-worker.mjs, as `npm start` runs it, on a
// free port with throw-away state), Debian's chromium through playwright-core (no browser download), named
// checks, cleanups that run once, an overall deadline, and the closing line `browser (<name>): N passed, M failed`.
// Needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it). Screenshots go to test-results/screenshots/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startLocalWorker } from "../../scripts/lib/local-worker.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SHOTS = join(ROOT, "test-results", "screenshots");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Without the background-networking flags chromium keeps trying hosts this machine's closed network refuses.
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

/**
 * The browser context's page, waiting at most `timeoutMs` for each step, with every uncaught page error and
 * console error (a CSP violation is one) collected in `jsErrors`: a test checks it is empty at the end.
 */
export async function openPage(context, { timeoutMs }) {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(timeoutMs);
  const jsErrors = [];
  page.on("pageerror", (err) => jsErrors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    // The page that logged it, and for a failed load the resource's URL, so a failure says where.
    if (msg.type() === "error") jsErrors.push(`console.error: ${msg.text()} (${msg.location()?.url || page.url()})`);
  });
  return { page, jsErrors };
}

/**
 * One browser test run: `log`, `check(condition, message)`, `cleanup(fn)` (run in the order registered;
 * `first` puts it ahead), `startWorker()`, `openBrowser(viewport)`, and `run(main)`, which runs `main`, then
 * the cleanups once, prints the closing line and exits 0 or 1. The run fails after `timeoutMs`.
 */
export function browserRun(name, { timeoutMs }) {
  const cleanups = [];
  let failed = false;
  let passed = 0;
  let stopping;
  const log = (msg) => console.log(`[${name}.e2e] ${msg}`);
  const check = (condition, message) => {
    if (!condition) throw new Error(`check failed: ${message}`);
    passed++;
    log(`ok - ${message}`);
  };
  const cleanup = (fn, { first = false } = {}) => (first ? cleanups.unshift(fn) : cleanups.push(fn));

  const stop = async () => {
    for (const fn of cleanups.splice(0)) {
      try {
        await fn();
      } catch {
        /* best effort */
      }
    }
    clearTimeout(timer);
    console.log(`browser (${name}): ${passed} passed, ${failed ? 1 : 0} failed`);
    process.exit(failed ? 1 : 0);
  };
  /** Runs the cleanups once: the deadline and main's end may both ask, and the second must wait for the first. */
  const shutdown = () => {
    stopping ??= stop();
    return stopping;
  };
  const timer = setTimeout(() => {
    console.error(`[${name}.e2e] timed out after ${timeoutMs / 1000}s`);
    failed = true;
    void shutdown();
  }, timeoutMs);

  /** The local worker (`options` as startLocalWorker's), stopped at the end; its base URL uses `localhost` (the console's cookie is Secure). */
  const startWorker = async (options = {}) => {
    const worker = await startLocalWorker(options);
    cleanup(() => worker.stop());
    const base = worker.baseUrl.replace("127.0.0.1", "localhost");
    log(`the local worker is up at ${base}`);
    return { ...worker, baseUrl: base };
  };

  /** A fresh chromium profile (removed at the end); closed before the worker stops. */
  const openBrowser = async (viewport = { width: 1280, height: 900 }) => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run scripts/ensure-chromium.sh (apt-get install chromium)`);
    mkdirSync(SHOTS, { recursive: true });
    const profile = mkdtempSync(join(tmpdir(), `ponte-${name}-profile-`));
    cleanup(() => rmSync(profile, { recursive: true, force: true }));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport,
    });
    cleanup(() => context.close(), { first: true });
    return context;
  };

  const run = (main) =>
    main()
      .then(() => log("all checks passed"))
      .catch((err) => {
        failed = true;
        console.error(`[${name}.e2e] FAILED: ${err.stack ?? err}`);
      })
      .finally(shutdown);

  return { log, check, cleanup, startWorker, openBrowser, run };
}
