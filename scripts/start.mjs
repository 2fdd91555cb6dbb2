#!/usr/bin/env node
// `npm start` (PORT=<n> to change the port, default 8787): builds the simulator and the static assets, applies local
// D1 migrations, seeds the demo tenant and a test API key (and, on a fresh state, about 12 months of demo history), runs the API and the upstream simulator together under
// `wrangler dev --env local` (the simulator is bound as UPSTREAM, so no network), points the simulator's webhooks
// at the API, and ends with the URLs and the key. Each step is printed as it starts.
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describeMirror, pushDemoMirror, readDemoMirror } from "./lib/demo-mirror.mjs";
import { cronsOf, startCrons } from "./lib/local-crons.mjs";
import { DEMO, localDevArgs, ROOT, toolEnv } from "./lib/local.mjs";
import { connectUpstreamWebhooks, rebuildDemoRollupsIfMissing, seed } from "./seed.mjs";

const port = Number(process.env.PORT ?? 8787);
/** `npm start -- --no-crons` (or PONTE_CRONS=off): do not fire the cron triggers locally. */
const cronsOn = !process.argv.includes("--no-crons") && process.env.PONTE_CRONS !== "off";
const step = (n, text) => console.log(`[${n}/5] ${text}`);

step(1, "Building the upstream simulator and the static assets (sim/dist, public/vendor)…");
execFileSync(process.execPath, [join(ROOT, "sim", "build.mjs")], { cwd: ROOT, stdio: "ignore" });
execFileSync(process.execPath, [join(ROOT, "scripts", "build-assets.mjs")], { cwd: ROOT, stdio: "ignore" });
step(
  2,
  "Applying D1 migrations and seeding the demo tenant, its gateway account, a test API key and (on a fresh state) 12 months of demo history (.wrangler/state)…",
);
const demo = await seed({ port, demo: true });
const history = demo.demoHistory;
// The simulator keeps its state in memory: the demo workspace's records go into it each time it comes up (read now, before wrangler dev opens the state).
const demoMirror = await readDemoMirror(DEMO.workspaceId).catch((err) => err);
step(3, `Starting the API and the upstream simulator (wrangler dev --env local, port ${port})…`);

const dev = spawn(join(ROOT, "node_modules", ".bin", "wrangler"), localDevArgs(port), {
  cwd: ROOT,
  stdio: ["inherit", "pipe", "inherit"],
  env: toolEnv(),
});
// wrangler dev compares worker-configuration.d.ts with types generated for the local environment
// alone, but the file types all three environments (npm run types; npm run typecheck checks it is
// current), so "Your types might be out of date" is always printed and never true here: drop that line.
createInterface({ input: dev.stdout }).on("line", (line) => {
  if (!line.includes("Your types might be out of date")) process.stdout.write(`${line}\n`);
});
let crons = null;
const stop = () => {
  crons?.stop();
  dev.kill("SIGINT");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => process.exit(code ?? 0));

// Once the API answers, point the simulator's webhooks at it (sandbox actions then reach Ponte).
let up = false;
for (let i = 0; i < 240 && dev.exitCode === null && !up; i++) {
  await new Promise((r) => setTimeout(r, 500));
  up = await fetch(`${demo.baseUrl}/api/v1/health`).then(
    (r) => r.ok,
    () => false,
  );
}
if (up) {
  step(4, "Pointing the simulator's webhooks at this API and mirroring the demo records into it…");
  const wired = await connectUpstreamWebhooks(demo).catch(() => false);
  if (!wired) console.log("      Could not configure the simulator's webhooks; inbound webhooks will not arrive.");
  const mirrored =
    demoMirror instanceof Error ? demoMirror : await pushDemoMirror(demo.baseUrl, demoMirror, DEMO.upstreamApiKey).catch((err) => err);
  if (mirrored instanceof Error)
    console.log(`      Could not mirror the demo records into the simulator (${mirrored.message}); passthrough calls on them answer 404.`);
  else console.log(`      Demo records mirrored into the simulator: ${describeMirror(mirrored)}.`);
  const rebuilt = await rebuildDemoRollupsIfMissing(demo).catch((err) => err);
  if (rebuilt instanceof Error) console.log(`      Could not rebuild the demo rollups (${rebuilt.message}); run npm run metrics:rebuild.`);
  else if (rebuilt) console.log(`      Demo rollups rebuilt from the history (${rebuilt.rows} daily rows): the dashboard is live.`);
  // wrangler dev does not fire [triggers] crons; fire them on schedule through its /cdn-cgi/local/scheduled route.
  const schedules = cronsOn ? cronsOf("local") : [];
  if (schedules.length > 0) {
    crons = startCrons(demo.baseUrl, schedules, {
      onRun: ({ cron, status, error }) => {
        if (error || status !== 200) console.log(`      Cron "${cron}" did not run: ${error ? error.message : `HTTP ${status}`}`);
      },
    });
  }
  step(5, "Ready.");
  console.log(
    [
      "",
      "Ponte is running (local environment, upstream simulator attached).",
      `  Base URL:     ${demo.baseUrl}/api/v1`,
      `  API key:      ${demo.apiKey}`,
      `  Organization: ${demo.organizationId}`,
      `  Workspace:    ${demo.workspaceId}`,
      `  Docs:         ${demo.baseUrl}/api/v1/docs`,
      `  Console:      ${demo.baseUrl}/console/sign-in`,
      ...(demo.consoleSignIn
        ? [
            `  Sign in as:   ${demo.consoleSignIn.email}  password ${demo.consoleSignIn.password}  (the demo organization's owner; new each start)`,
          ]
        : []),
      `  Crons:        ${cronsOn ? `on, as in production (${cronsOf("local").join(", ")}, UTC); npm start -- --no-crons turns them off` : "off (--no-crons)"}`,
      ...(history
        ? [
            `  Demo history: ${history.from} → ${history.to} (${history.customers} customers, ${history.payments} charges, ${history.expenses} expenses)`,
          ]
        : []),
      "",
      `  Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${demo.baseUrl}/api/v1/workspaces`,
      `  Webhooks to your machine: PONTE_API_KEY=${demo.apiKey} PORT=${port} npm run listen -- --forward-to http://localhost:3000/webhooks`,
      "",
    ].join("\n"),
  );
} else if (dev.exitCode === null) {
  console.log(`The API did not answer on ${demo.baseUrl}/api/v1/health within 2 minutes; wrangler's output above says why.`);
}
