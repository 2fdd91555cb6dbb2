// The baseline for payment creation: parse the same JSON body, do ONE D1 insert, answer an envelope.
// No auth, no validation library, no upstream call: the floor a create on this platform can reach.
export default {
  async fetch(request, env) {
    if (request.method !== "POST") return Response.json({ ok: true });
    const body = await request.json();
    const id = crypto.randomUUID();
    const createdAt = new Date().toISOString();
    const valueCents = Math.round(Number(body.value) * 100);
    await env.DB.prepare(
      "INSERT INTO payments (id, customer, billing_type, value_cents, due_date, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
      .bind(id, body.customer, body.billingType, valueCents, body.dueDate, createdAt)
      .run();
    const data = {
      id,
      object: "payment",
      customer: body.customer,
      billingType: body.billingType,
      status: "PENDING",
      value: body.value,
      dueDate: body.dueDate,
      createdAt,
    };
    return Response.json({ data, meta: { requestId: crypto.randomUUID() } });
  },
};
