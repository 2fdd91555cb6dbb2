// Baseline for a charge create, the safe two-step way: INSERT the pending row, create the charge at the
// simulator, then one batch that links the upstream id and writes the event. BENCH_KEY and UPSTREAM_KEY come
// from the benchmark (--var); the body is Ponte's ({customer, billingType, value, dueDate}). The upstream
// customer is created once per isolate (during the benchmark's warm-up), as Ponte's customer already exists.
let upstreamCustomer;
const customerAtUpstream = (env) =>
  (upstreamCustomer ??= env.UPSTREAM.fetch(
    new Request("https://upstream-sim.internal/v3/customers", {
      method: "POST",
      headers: { access_token: env.UPSTREAM_KEY, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Bench Cliente", cpfCnpj: "52998224725" }),
    }),
  )
    .then((res) => res.json())
    .then((customer) => customer.id));

export default {
  async fetch(request, env) {
    if (request.headers.get("Authorization") !== `Bearer ${env.BENCH_KEY}`) {
      return Response.json({ error: { code: "UNAUTHORIZED" } }, { status: 401 });
    }
    const body = await request.json();
    const customer = await customerAtUpstream(env);
    const id = crypto.randomUUID();
    const createdAt = new Date().toISOString();
    const [whole, cents = "0"] = String(body.value).split(".");
    const valueCents = Number(whole) * 100 + Number(cents.padEnd(2, "0"));
    await env.DB.prepare(
      "INSERT INTO charges (id, customer, billing_type, value_cents, due_date, status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 'PENDING', ?6)",
    )
      .bind(id, body.customer, body.billingType, valueCents, body.dueDate, createdAt)
      .run();
    const upstream = await env.UPSTREAM.fetch(
      new Request("https://upstream-sim.internal/v3/payments", {
        method: "POST",
        headers: { access_token: env.UPSTREAM_KEY, "Content-Type": "application/json", "User-Agent": "ponte-bench-safe-create" },
        body: JSON.stringify({
          customer,
          billingType: body.billingType,
          value: valueCents / 100,
          dueDate: body.dueDate,
          externalReference: id,
        }),
      }),
    );
    const charge = await upstream.json();
    if (!upstream.ok) return Response.json({ error: { code: "UPSTREAM_ERROR", detail: charge } }, { status: 502 });
    const data = {
      id,
      object: "payment",
      customer: body.customer,
      billingType: body.billingType,
      status: charge.status,
      value: body.value,
      dueDate: body.dueDate,
      upstreamId: charge.id,
      createdAt,
    };
    await env.DB.batch([
      env.DB.prepare("UPDATE charges SET upstream_id = ?1, status = ?2 WHERE id = ?3").bind(charge.id, charge.status, id),
      env.DB.prepare("INSERT INTO events (id, type, data, created_at) VALUES (?1, 'payment.created', ?2, ?3)").bind(
        crypto.randomUUID(),
        JSON.stringify(data),
        createdAt,
      ),
    ]);
    return Response.json({ data, meta: { requestId: crypto.randomUUID() } }, { status: 201 });
  },
};
