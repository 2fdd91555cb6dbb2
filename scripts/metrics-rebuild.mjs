#!/usr/bin/env node
// `npm run metrics:rebuild [-- --key <api key>] [-- --workspace <id>]`: asks the running local API
// (`npm start`, PORT default 8787) to recompute a workspace's daily metric rollups from its records
// (POST /api/v1/metrics/rebuild). Without --key it issues a fresh demo key (as `npm run seed`) and
// rebuilds the demo workspace.
import { seed } from "./seed.mjs";

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const port = Number(process.env.PORT ?? 8787);
let key = arg("key") ?? process.env.PONTE_API_KEY;
let workspace = arg("workspace");
if (!key) {
  const demo = await seed({ port });
  key = demo.apiKey;
  workspace ??= demo.workspaceId;
}
const res = await fetch(`http://localhost:${port}/api/v1/metrics/rebuild`, {
  method: "POST",
  headers: { Authorization: `Bearer ${key}`, ...(workspace ? { "X-Workspace-Id": workspace } : {}) },
}).catch((err) => {
  console.error(`metrics:rebuild: the API is not reachable on port ${port} (start it with npm start): ${err.message}`);
  process.exit(1);
});
const body = await res.json();
if (!res.ok) {
  console.error(`metrics:rebuild failed: ${res.status} ${JSON.stringify(body.error ?? body)}`);
  process.exit(1);
}
console.log(JSON.stringify(body.data));
