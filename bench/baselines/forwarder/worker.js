// Baseline for a passthrough GET: check a fixed header, call the simulator over the service binding
// with the upstream key (the path after /api/v1, query kept), wrap its JSON in an envelope.
// BENCH_KEY and UPSTREAM_KEY come from the benchmark (--var).
export default {
  async fetch(request, env) {
    if (request.headers.get("Authorization") !== `Bearer ${env.BENCH_KEY}`) {
      return Response.json({ error: { code: "UNAUTHORIZED" } }, { status: 401 });
    }
    const url = new URL(request.url);
    const upstream = await env.UPSTREAM.fetch(
      new Request(`https://upstream-sim.internal/v3${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`, {
        headers: { access_token: env.UPSTREAM_KEY, "User-Agent": "ponte-bench-forwarder" },
      }),
    );
    const data = await upstream.json();
    return Response.json({ data, meta: { requestId: crypto.randomUUID() } }, { status: upstream.status });
  },
};
