// Baseline for an authenticated read: check a fixed header, SELECT the organization row by id, answer
// an envelope. BENCH_KEY and ORGANIZATION_ID come from the benchmark (--var).
export default {
  async fetch(request, env) {
    if (request.headers.get("Authorization") !== `Bearer ${env.BENCH_KEY}`) {
      return Response.json({ error: { code: "UNAUTHORIZED" } }, { status: 401 });
    }
    const row = await env.DB.prepare("SELECT id, name, time_zone, created_at, updated_at FROM organizations WHERE id = ?1")
      .bind(env.ORGANIZATION_ID)
      .first();
    if (!row) return Response.json({ error: { code: "NOT_FOUND" } }, { status: 404 });
    const data = {
      id: row.id,
      object: "organization",
      name: row.name,
      timeZone: row.time_zone,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
    return Response.json({ data, meta: { requestId: crypto.randomUUID() } });
  },
};
