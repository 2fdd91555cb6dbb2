#!/usr/bin/env node
// `npm run smoke -- --base https://sandbox.example.com --key ponte_test_… [--webhook-url https://…]`: the five-minute
// flow (scripts/lib/smoke.mjs) against any deployment. One line per step, then a JSON summary; exit 1 on a failed step.
// The key may also come from PONTE_SMOKE_KEY (kept out of the shell history).
import { parseArgs } from "node:util";
import { runSmoke } from "./lib/smoke.mjs";

const { values } = parseArgs({ options: { base: { type: "string" }, key: { type: "string" }, "webhook-url": { type: "string" } } });
const key = values.key ?? process.env.PONTE_SMOKE_KEY;
if (!values.base || !key) {
  console.error("usage: npm run smoke -- --base <deployment URL> --key <ponte_test_ key> [--webhook-url <https receiver>]");
  process.exit(2);
}
const summary = await runSmoke({ base: values.base, key, webhookUrl: values["webhook-url"], say: console.log });
console.log(JSON.stringify(summary, null, 2));
process.exit(summary.ok ? 0 : 1);
