// bench:charges-split only: the bare safe create (bench/baselines/safe-create/worker.js, unchanged) with the
// wall time of each of its I/O steps in a Server-Timing header, as Ponte's SERVER_TIMING=on gives its stages:
// `insert` (the pending INSERT), `upstream` (the simulator's charge), `batch` (the link and the event), `own`
// (everything else: the body, the JSON, the response). The customer's upstream create (once per isolate) is not
// counted. The steps are timed around the baseline's own calls; what it sends is what it always sends.
import baseline from "../../baselines/safe-create/worker.js";

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const steps = { insert: 0, upstream: 0, batch: 0 };
    const timed = async (step, promise) => {
      const t0 = performance.now();
      try {
        return await promise;
      } finally {
        steps[step] += performance.now() - t0;
      }
    };
    let fetches = 0;
    const DB = {
      prepare: (sql) => {
        const statement = env.DB.prepare(sql);
        return {
          bind: (...args) => {
            const bound = statement.bind(...args);
            return { run: () => timed("insert", bound.run()), inner: bound };
          },
        };
      },
      batch: (statements) => timed("batch", env.DB.batch(statements.map((s) => s.inner))),
    };
    const UPSTREAM = {
      // The first fetch of an isolate is the customer's create; every later one is a charge.
      fetch: (req) =>
        fetches++ === 0 && req.url.endsWith("/v3/customers") ? env.UPSTREAM.fetch(req) : timed("upstream", env.UPSTREAM.fetch(req)),
    };
    const response = await baseline.fetch(request, { ...env, DB, UPSTREAM }, ctx);
    const total = performance.now() - started;
    const io = steps.insert + steps.upstream + steps.batch;
    const header = [
      ...Object.entries(steps).map(([k, v]) => `${k};dur=${v.toFixed(3)}`),
      `own;dur=${(total - io).toFixed(3)}`,
      `worker;dur=${total.toFixed(3)}`,
    ];
    const out = new Response(response.body, response);
    out.headers.set("Server-Timing", header.join(", "));
    return out;
  },
};
