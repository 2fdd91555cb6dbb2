#!/usr/bin/env node
// `npm start` (PORT=<n> to change the port, default 8787): applies local D1 migrations, seeds the
// demo tenant and a test API key (and, on a fresh state, about 12 months of demo history), prints
// them, then runs the API and the upstream simulator together under `wrangler dev --env local` (the
// simulator is bound as UPSTREAM, so no network); once the API answers, it rebuilds the demo rollups
// if the history was just added.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT, toolEnv } from "./lib/local.mjs";
import { connectUpstreamWebhooks, rebuildDemoRollupsIfMissing, seed } from "./seed.mjs";
import { execFileSync } from "node:child_process";

const port = Number(process.env.PORT ?? 8787);
execFileSync(process.execPath, [join(ROOT, "sim", "build.mjs")], { cwd: ROOT, stdio: "ignore" });
execFileSync(process.execPath, [join(ROOT, "scripts", "build-assets.mjs")], { cwd: ROOT, stdio: "ignore" });
const demo = await seed({ port, demo: true });
const history = demo.demoHistory;

const banner = [
  "",
  "Ponte is starting (local environment, upstream simulator attached).",
  `  Base URL:     ${demo.baseUrl}/api/v1`,
  `  API key:      ${demo.apiKey}`,
  `  Organization: ${demo.organizationId}`,
  `  Workspace:    ${demo.workspaceId}`,
  `  Docs:         ${demo.baseUrl}/api/v1/docs`,
  "",
  `  Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${demo.baseUrl}/api/v1/workspaces`,
  ...(history
    ? [
        `  Demo history: ${history.from} → ${history.to} (${history.customers} customers, ${history.payments} charges, ${history.expenses} expenses) if the workspace was empty`,
        "",
      ]
    : []),
].join("\n");
console.log(banner);

const dev = spawn(
  join(ROOT, "node_modules", ".bin", "wrangler"),
  [
    "dev",
    "-c",
    "wrangler.toml",
    "-c",
    "sim/wrangler.toml",
    "--env",
    "local",
    "--port",
    String(port),
    "--test-scheduled",
    "--show-interactive-dev-session=false",
  ],
  { cwd: ROOT, stdio: "inherit", env: toolEnv() },
);
const stop = () => dev.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => process.exit(code ?? 0));

// Once the API answers, point the simulator's webhooks at it (sandbox actions then reach Ponte).
for (let i = 0; i < 240 && dev.exitCode === null; i++) {
  await new Promise((r) => setTimeout(r, 500));
  const up = await fetch(`${demo.baseUrl}/api/v1/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (!up) continue;
  const wired = await connectUpstreamWebhooks(demo).catch(() => false);
  console.log(
    wired
      ? "Upstream simulator webhooks → this API: connected."
      : "Could not configure the simulator's webhooks; inbound webhooks will not arrive.",
  );
  const rebuilt = await rebuildDemoRollupsIfMissing(demo).catch((err) => err);
  if (rebuilt instanceof Error) console.log(`Could not rebuild the demo rollups (${rebuilt.message}); run npm run metrics:rebuild.`);
  else if (rebuilt) console.log(`Demo rollups rebuilt from the history (${rebuilt.rows} daily rows): the dashboard is live.`);
  break;
}
