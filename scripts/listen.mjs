#!/usr/bin/env node
// `npm run listen -- --forward-to <url> [--events payment.*] [--api <base>] [--key <key>]`: registers a temporary
// webhook endpoint for this run, prints its signing secret, re-posts each delivery to <url> signed with it, prints
// one line per delivery, and deletes the endpoint on exit (Ctrl-C / SIGTERM). See scripts/lib/listen.mjs.
import { parseListenArgs, startHttpListen, USAGE, UsageError } from "./lib/listen.mjs";

let options;
try {
  options = parseListenArgs(process.argv.slice(2), process.env);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  if (err.message) console.error(`listen: ${err.message}\n`);
  console.error(USAGE);
  process.exit(err.message ? 2 : 0);
}

let start = startHttpListen;
if (options.transport === "ws") ({ startWsListen: start } = await import("./lib/listen-ws.mjs"));

let session;
try {
  session = await start(options);
} catch (err) {
  console.error(`listen: could not register the endpoint at ${options.api}: ${err.message}`);
  process.exit(1);
}

console.log(
  [
    `Ready. Forwarding ${session.eventKinds.join(", ")} to ${options.forwardTo} (transport ${options.transport}).`,
    `  Webhook endpoint: ${session.endpointId} (temporary; deleted when you stop this)`,
    `  Signing secret:   ${session.secret}`,
    "  Verify X-Service-Signature with this secret. Ctrl-C to stop.",
    "",
  ].join("\n"),
);

let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  try {
    await session.close();
    console.log(`\n${signal}: webhook endpoint ${session.endpointId} deleted.`);
    process.exit(0);
  } catch (err) {
    console.error(`\n${signal}: could not delete webhook endpoint ${session.endpointId}: ${err.message}`);
    process.exit(1);
  }
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
