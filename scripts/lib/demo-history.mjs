// About 12 months of realistic, deterministic history for the demo workspace, as one SQL file written
// straight to the tables (`npm run seed -- --demo`, and `npm start` on a fresh state): customers, plans,
// subscriptions with churn, charges received/overdue/refunded/canceled/pending, refunds, suppliers and
// expenses by category and supplier (some allocated to a plan or a customer). The rollups are then
// rebuilt from these records by POST /metrics/rebuild. A seeded PRNG makes the same history for the
// same day; money is integer cents throughout.

import {
  prng,
  localDay,
  addDays,
  addMonths,
  instant,
  q,
  demoId,
  cpf,
  FIRST,
  LAST,
  COMPANY,
  PLACE,
  PLANS,
  BILLING,
  fee,
  SUPPLIERS,
  pick,
  usdToBrlCents,
  cols,
  insertAll,
} from "./demo-data.mjs";

/**
 * The SQL for the demo history of `workspaceId`, ending on `now` (its local day in São Paulo).
 * Cost categories are looked up by key (the default set the seed inserts just before).
 */
/**
 * `scale` multiplies the history (customers joining each month, and the monthly expenses — bench:scale writes
 * 100×); `space` keeps the ids of several histories in one database apart.
 */
export function demoHistorySql({ organizationId, workspaceId, now = new Date(), seed = 0x90e7e, scale = 1, space = 0 }) {
  const rand = prng(seed);
  const today = localDay(now);
  const nowIso = now.toISOString();
  const start = addMonths(today, -12);
  const tenant = { organizationId, workspaceId };
  const category = (key) => ({ sql: `(SELECT id FROM cost_categories WHERE workspace_id = ${q(workspaceId)} AND key = ${q(key)})` });
  const ids = { customers: 0, plans: 0, subscriptions: 0, payments: 0, refunds: 0, suppliers: 0, expenses: 0 };
  const next = (kind, hex) => demoId(hex, ++ids[kind], space);

  const plans = PLANS.map((p) => ({
    ...p,
    id: next("plans", 2),
    ...tenant,
    description: `Plano ${p.name}`,
    billingType: "UNDEFINED",
    status: "active",
    createdAt: `${start}T12:00:00.000Z`,
    updatedAt: `${start}T12:00:00.000Z`,
  }));
  const customers = [];
  const subscriptions = [];
  const payments = [];
  const refunds = [];
  const revenueByMonth = new Map();

  /** One charge: its outcome decided by the dice and by whether its due date has passed. */
  function charge(customer, sub, valueCents, billingType, dueDate, createdDay, description) {
    const id = next("payments", 4);
    const createdAt = createdDay >= today ? nowIso : instant(createdDay, rand);
    const row = {
      id,
      ...tenant,
      upstreamId: `pay_demo${String(ids.payments).padStart(8, "0")}`,
      syncStatus: "synced",
      customerId: customer.id,
      subscriptionId: sub?.id ?? null,
      billingType,
      status: "PENDING",
      valueCents,
      refundedCents: 0,
      dueDate,
      description,
      paymentDate: null,
      netValueCents: null,
      origin: "api",
      createdAt,
      updatedAt: createdAt,
    };
    payments.push(row);
    if (dueDate >= today) return row;
    const r = rand();
    if (r < 0.06 && dueDate >= addDays(today, -45)) {
      row.status = "OVERDUE";
      row.updatedAt = instant(addDays(dueDate, 1), rand);
      return row;
    }
    if (r < 0.08) {
      row.status = "CANCELED";
      row.updatedAt = instant(addDays(dueDate, 3) < today ? addDays(dueDate, 3) : today, rand);
      return row;
    }
    let paid = addDays(dueDate, -Math.floor(rand() * 4));
    if (paid < createdDay) paid = createdDay;
    if (paid > today) paid = today;
    row.status = billingType === "CREDIT_CARD" && paid >= addDays(today, -30) ? "CONFIRMED" : "RECEIVED";
    row.paymentDate = paid;
    row.netValueCents = valueCents - fee(billingType, valueCents);
    row.updatedAt = instant(paid, rand);
    const month = paid.slice(0, 7);
    revenueByMonth.set(month, (revenueByMonth.get(month) ?? 0) + valueCents);
    if (r > 0.975) {
      // Refunded (in full, a few days after payment), or part of it.
      const full = r > 0.988;
      const refundDay = addDays(paid, 2 + Math.floor(rand() * 8));
      if (refundDay <= today) {
        const value = full ? valueCents : Math.round(valueCents * 0.3);
        row.refundedCents = value;
        if (full) row.status = "REFUNDED";
        const at = instant(refundDay, rand);
        row.updatedAt = at;
        refunds.push({
          id: next("refunds", 5),
          ...tenant,
          paymentId: id,
          valueCents: value,
          description: full ? "Estorno a pedido do cliente" : "Estorno parcial (desconto negociado)",
          status: "done",
          origin: "ponte",
          createdAt: at,
          updatedAt: at,
        });
      }
    }
    return row;
  }

  // Customers join every month (more each month); each subscribes to a plan the day they join.
  for (let m = 0; m < 12; m++) {
    const monthStart = addMonths(start, m);
    const joining = scale * ((m === 0 ? 45 : 6 + Math.floor(m * 1.8)) + Math.floor(rand() * 4)); // month 0: the base brought over
    for (let k = 0; k < joining; k++) {
      const day = addDays(monthStart, Math.floor(rand() * 28));
      if (day > today) continue;
      const company = rand() < 0.4;
      const name = company
        ? `${COMPANY[Math.floor(rand() * COMPANY.length)]} ${PLACE[Math.floor(rand() * PLACE.length)]}`
        : `${FIRST[Math.floor(rand() * FIRST.length)]} ${LAST[Math.floor(rand() * LAST.length)]}`;
      const createdAt = instant(day, rand);
      const id = next("customers", 1);
      const customer = {
        id,
        ...tenant,
        upstreamId: `cus_demo${String(ids.customers).padStart(8, "0")}`,
        syncStatus: "synced",
        name,
        cpfCnpj: cpf(rand),
        personType: "FISICA",
        email: `${name
          .toLowerCase()
          .normalize("NFD")
          .replace(/[^a-z ]/g, "")
          .replace(/ /g, ".")}${ids.customers}@example.com`,
        mobilePhone: `119${String(Math.floor(rand() * 1e8)).padStart(8, "0")}`,
        origin: "api",
        createdAt,
        updatedAt: createdAt,
      };
      customers.push(customer);
      const plan = pick(
        rand,
        plans.map((p) => [p, p.weight]),
      );
      const billingType = pick(rand, BILLING);
      const sub = {
        id: next("subscriptions", 3),
        ...tenant,
        upstreamId: `sub_demo${String(ids.subscriptions).padStart(8, "0")}`,
        syncStatus: "synced",
        planId: plan.id,
        customerId: id,
        billingType,
        valueCents: plan.valueCents,
        cycle: plan.cycle,
        nextDueDate: day,
        status: "ACTIVE",
        description: `Assinatura ${plan.name}`,
        canceledAt: null,
        createdAt,
        updatedAt: createdAt,
      };
      subscriptions.push(sub);
      if (rand() < 0.15) charge(customer, null, 29900, billingType, addDays(day, 3), day, "Taxa de implantação");
      const step = plan.cycle === "YEARLY" ? 12 : 1;
      for (let n = 0; ; n++) {
        const due = addMonths(day, n * step);
        if (n > 0 && rand() < plan.churn * step) {
          const canceledOn = addDays(due, -1 - Math.floor(rand() * 10));
          if (canceledOn <= today) {
            sub.status = "CANCELED";
            sub.canceledAt = instant(canceledOn < day ? day : canceledOn, rand);
            sub.updatedAt = sub.canceledAt;
            break;
          }
        }
        const created = addDays(due, -10) < day ? day : addDays(due, -10);
        if (created > today) {
          sub.nextDueDate = due;
          break;
        }
        charge(customer, sub, plan.valueCents, billingType, due, created, `${plan.name} ${due.slice(0, 7)}`);
        if (due >= today) {
          sub.nextDueDate = addMonths(day, (n + 1) * step);
          break;
        }
      }
    }
  }

  // Suppliers and the monthly expenses.
  const suppliers = SUPPLIERS.map(([key, name, categoryKey, website]) => ({
    key,
    categoryKey,
    id: next("suppliers", 6),
    ...tenant,
    name,
    website,
    defaultCostCategoryId: category(categoryKey),
    archived: 0,
    createdAt: `${start}T12:00:00.000Z`,
    updatedAt: `${start}T12:00:00.000Z`,
  }));
  const supplier = (key) => suppliers.find((s) => s.key === key);
  const expenses = [];
  const expense = (supplierKey, description, amountBrlCents, incurredOn, o = {}) => {
    if (incurredOn > today) return;
    const s = supplier(supplierKey);
    const paid = incurredOn < addDays(today, -5);
    expenses.push({
      id: next("expenses", 7),
      ...tenant,
      description,
      amountCents: o.amountCents ?? amountBrlCents,
      currency: o.currency ?? "BRL",
      exchangeRateMicros: o.exchangeRateMicros ?? null,
      amountBrlCents,
      incurredOn,
      dueDate: addDays(incurredOn, 10),
      paidAt: paid ? instant(addDays(incurredOn, 5) < today ? addDays(incurredOn, 5) : today, rand) : null,
      status: o.status ?? (paid ? "PAID" : "PENDING"),
      costCategoryId: category(o.categoryKey ?? s.categoryKey),
      supplierId: s.id,
      planId: o.planId ?? null,
      customerId: o.customerId ?? null,
      recurrence: "NONE",
      source: o.source ?? "MANUAL",
      sourceRef: o.sourceRef ?? null,
      createdAt: instant(incurredOn, rand),
      updatedAt: instant(incurredOn, rand),
    });
  };
  const business = plans.find((p) => p.key === "business");
  const activeByMonth = new Map();
  /** Subscriptions active in a month (`YYYY-MM`), counted once per month however large the scale. */
  const activeIn = (month) => {
    if (!activeByMonth.has(month))
      activeByMonth.set(
        month,
        subscriptions.filter((s) => s.createdAt.slice(0, 7) <= month && (!s.canceledAt || s.canceledAt.slice(0, 7) >= month)).length,
      );
    return activeByMonth.get(month);
  };
  for (let unit = 0; unit < scale; unit++)
    for (let m = 0; m <= 12; m++) {
      const month = addMonths(start, m).slice(0, 7);
      const first = `${month}-01`;
      const active = activeIn(month);
      expense("folha", `Folha de pagamento ${month}`, 750_000 + m * 25_000, `${month}-05`);
      expense("github", `GitHub Team ${month}`, 45_000, first);
      expense("google_ws", `Google Workspace ${month}`, 42_000 + active * 300, first);
      expense("contabil", `Honorários contábeis ${month}`, 65_000, `${month}-10`);
      const rate = 5_300_000 + Math.floor(rand() * 400_000);
      const usd = 9_000 + active * 90 + Math.floor(rand() * 4_000);
      expense("aws", `AWS ${month}`, usdToBrlCents(usd, rate), `${month}-02`, {
        currency: "USD",
        amountCents: usd,
        exchangeRateMicros: rate,
        source: "AWS",
        sourceRef: `aws:demo:${month}${unit > 0 ? `:${unit}` : ""}`,
      });
      expense("google_ads", `Google Ads ${month}`, 80_000 + Math.floor(rand() * 120_000), `${month}-15`);
      if (rand() < 0.6) expense("meta", `Meta Ads ${month}`, 50_000 + Math.floor(rand() * 70_000), `${month}-18`);
      const previousRevenue = revenueByMonth.get(addMonths(first, -1).slice(0, 7)) ?? 0;
      if (previousRevenue > 0) expense("receita", `DAS Simples Nacional ${month}`, Math.round(previousRevenue * 0.06), `${month}-20`);
      expense("aws", `Suporte dedicado Business ${month}`, 120_000, `${month}-25`, { categoryKey: "infrastructure", planId: business.id });
      if (m % 4 === 2) expense("meta", `Campanha cancelada ${month}`, 50_000, `${month}-12`, { status: "CANCELED" });
    }
  // Custom integrations billed to three of the largest customers, allocated to them.
  const big = subscriptions.filter((s) => s.planId === business.id).slice(0, 3);
  for (const s of big)
    expense("contabil", "Integração sob medida (consultoria)", 250_000, addDays(s.createdAt.slice(0, 10), 7), {
      categoryKey: "other",
      customerId: s.customerId,
    });

  // An AWS connection to the simulator's AWS (ROLE: nothing secret to seal), ready to verify and sync
  // from the console or the API; the simulator answers any role outside account 000000000000.
  const awsConnections = [
    {
      id: demoId(8, 1, space),
      ...tenant,
      name: "Produção (simulador)",
      authType: "ROLE",
      roleArn: "arn:aws:iam::123456789012:role/PonteCostReader",
      externalId: `ponte-demo-${demoId(8, 1, space)}`,
      costCategoryId: category("infrastructure"),
      exchangeRateMicros: 5_400_000,
      status: "PENDING",
      createdAt: `${today}T12:00:00.000Z`,
      updatedAt: `${today}T12:00:00.000Z`,
    },
  ];

  const guard = `NOT EXISTS (SELECT 1 FROM plans WHERE workspace_id = ${q(workspaceId)})`;
  const sql = [
    "-- Ponte demo history (scripts/lib/demo-history.mjs): added only to a workspace without plans (plans last, in one statement).",
    insertAll(
      "subscriptions",
      cols(
        "id organizationId workspaceId upstreamId syncStatus planId customerId billingType valueCents cycle nextDueDate status description canceledAt createdAt updatedAt",
      ),
      subscriptions,
      guard,
    ),
    insertAll(
      "payments",
      cols(
        "id organizationId workspaceId upstreamId syncStatus customerId subscriptionId billingType status valueCents refundedCents dueDate description paymentDate netValueCents origin createdAt updatedAt",
      ),
      payments,
      guard,
    ),
    insertAll(
      "refunds",
      cols("id organizationId workspaceId paymentId valueCents description status origin createdAt updatedAt"),
      refunds,
      guard,
    ),
    insertAll(
      "suppliers",
      cols("id organizationId workspaceId name website defaultCostCategoryId archived createdAt updatedAt"),
      suppliers,
      guard,
    ),
    insertAll(
      "expenses",
      cols(
        "id organizationId workspaceId description amountCents currency exchangeRateMicros amountBrlCents incurredOn dueDate paidAt status costCategoryId supplierId planId customerId recurrence source sourceRef createdAt updatedAt",
      ),
      expenses,
      guard,
    ),
    insertAll(
      "aws_connections",
      cols("id organizationId workspaceId name authType roleArn externalId costCategoryId exchangeRateMicros status createdAt updatedAt"),
      awsConnections,
      guard,
    ),
    insertAll(
      "customers",
      cols("id organizationId workspaceId upstreamId syncStatus name cpfCnpj personType email mobilePhone origin createdAt updatedAt"),
      customers,
      guard,
    ),
    insertAll(
      "plans",
      cols("id organizationId workspaceId name description valueCents cycle billingType status createdAt updatedAt"),
      plans,
      guard,
      10, // one statement: the guard holds for all of it
    ),
  ].join("\n");
  return {
    sql,
    counts: {
      customers: customers.length,
      plans: plans.length,
      subscriptions: subscriptions.length,
      canceledSubscriptions: subscriptions.filter((s) => s.status !== "ACTIVE").length,
      payments: payments.length,
      refunds: refunds.length,
      suppliers: suppliers.length,
      expenses: expenses.length,
      awsConnections: awsConnections.length,
    },
    from: start,
    to: today,
  };
}
