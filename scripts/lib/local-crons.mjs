// Cron triggers for the local worker. `wrangler dev` never fires `[triggers] crons` by itself: it only exposes
// `/cdn-cgi/local/scheduled?cron=<expression>` (the local runtime's trigger route; the older `/__scheduled` of
// `--test-scheduled` is a middleware wrangler's bundler adds, and the worker is built by scripts/build-worker.mjs
// and uploaded as it is, so that route is not there). This fires each of the environment's schedules on
// time through that route, so under `npm start` retries, recurring expenses, AWS syncs and the adoption sweep
// run as they do in production. Schedules come from wrangler.toml (smol-toml parses it); next run times from
// croner (a maintained cron parser: 5-field expressions, ranges, steps, lists), in UTC as Cloudflare fires them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Cron } from "croner";
import { parse } from "smol-toml";
import { ROOT } from "./local.mjs";

/** The local runtime's route that runs the worker's scheduled handler (200 "ok" when it ran, 500 when it threw). */
export const SCHEDULED_PATH = "/cdn-cgi/local/scheduled";

/** The cron expressions of one environment of wrangler.toml (`production` is the top level). */
export function cronsOf(environment, tomlText = readFileSync(join(ROOT, "wrangler.toml"), "utf8")) {
  const config = parse(tomlText);
  const section = environment === "production" ? config : config.env?.[environment];
  if (!section) throw new Error(`wrangler.toml has no [env.${environment}]`);
  const crons = section.triggers?.crons ?? [];
  if (!Array.isArray(crons) || crons.some((c) => typeof c !== "string"))
    throw new Error(`[${environment}] triggers.crons must be a list of strings`);
  return crons;
}

/**
 * Fires every expression on its schedule against `baseUrl` until `stop()`: at each due minute it calls
 * `GET {baseUrl}/cdn-cgi/local/scheduled?cron=<expression>`. `fetchImpl`, `now` and `setTimer` are seams for tests.
 * `onRun({ cron, at, status | error })` reports each run. One run per expression at a time: a run still
 * going when the next is due is skipped (Cloudflare's overlapping invocations are not modelled).
 */
export function startCrons(
  baseUrl,
  crons,
  { fetchImpl = fetch, now = () => new Date(), setTimer = setTimeout, clearTimer = clearTimeout, onRun = () => {} } = {},
) {
  const timers = new Map();
  let stopped = false;
  const schedule = (expression) => {
    if (stopped) return;
    const cron = new Cron(expression, { paused: true, timezone: "UTC" });
    const at = cron.nextRun(now());
    if (!at) return;
    const delay = Math.max(0, at.getTime() - now().getTime());
    timers.set(
      expression,
      setTimer(async () => {
        try {
          const res = await fetchImpl(`${baseUrl}${SCHEDULED_PATH}?cron=${encodeURIComponent(expression)}`);
          await res.arrayBuffer?.();
          onRun({ cron: expression, at, status: res.status });
        } catch (error) {
          onRun({ cron: expression, at, error });
        }
        schedule(expression);
      }, delay),
    );
  };
  for (const expression of crons) schedule(expression);
  return {
    stop() {
      stopped = true;
      for (const t of timers.values()) clearTimer(t);
      timers.clear();
    },
  };
}
