// The demo history lives upstream too. The seed writes it straight into local D1 (demo-history.mjs) with
// upstream ids (`cus_demo…`, `sub_demo…`, `pay_demo…`) that the upstream simulator never made, and the
// simulator keeps its state in memory; so each time the local worker comes up, every synced customer,
// subscription and charge of the demo workspace (the history and whatever was created through the API
// before) is imported into the simulator's account with the same ids, values, statuses and dates, through
// its control API (`POST /__sim/import`, reached through the local API's `/__sim/` forward). Passthrough
// calls on a demo record (its PIX QR code, an update, a refund) then reach a record the upstream holds.
// Idempotent: records the simulator already holds are left as they are.
//
// Read once from D1 by one query (`MIRROR_SQL`, also run by the worker tests), turned into the
// upstream's shapes by `mirrorRecords`, sent in bounded batches by `pushDemoMirror`.
// Pure but for `readDemoMirror` (Node: it runs wrangler), so the worker tests import it too.
import { q as sqlString } from "./demo-data.mjs";

/** Records per import request (the simulator takes at most 500). */
export const MIRROR_BATCH = 400;

/** One row, one column (`mirror`, JSON): the workspace's synced customers, subscriptions, charges and done refunds. */
export function mirrorSql(workspaceId) {
  const ws = sqlString(workspaceId);
  return `SELECT json_object(
  'customers', (SELECT json_group_array(json_object('id', upstream_id, 'name', name, 'cpfCnpj', cpf_cnpj, 'email', email,
      'phone', phone, 'mobilePhone', mobile_phone, 'externalReference', external_reference, 'createdAt', created_at,
      'deleted', deleted_at IS NOT NULL))
    FROM customers WHERE workspace_id = ${ws} AND upstream_id IS NOT NULL),
  'subscriptions', (SELECT json_group_array(json_object('id', s.upstream_id, 'customer', c.upstream_id, 'billingType', s.billing_type,
      'valueCents', s.value_cents, 'cycle', s.cycle, 'nextDueDate', s.next_due_date, 'status', s.status, 'description', s.description,
      'externalReference', s.external_reference, 'createdAt', s.created_at))
    FROM subscriptions s JOIN customers c ON c.id = s.customer_id
    WHERE s.workspace_id = ${ws} AND s.upstream_id IS NOT NULL AND c.upstream_id IS NOT NULL),
  'payments', (SELECT json_group_array(json_object('id', p.upstream_id, 'customer', c.upstream_id, 'subscription', s.upstream_id,
      'billingType', p.billing_type, 'status', p.status, 'valueCents', p.value_cents, 'netValueCents', p.net_value_cents,
      'dueDate', p.due_date, 'paymentDate', p.payment_date, 'description', p.description, 'externalReference', p.external_reference,
      'createdAt', p.created_at))
    FROM payments p JOIN customers c ON c.id = p.customer_id LEFT JOIN subscriptions s ON s.id = p.subscription_id
    WHERE p.workspace_id = ${ws} AND p.upstream_id IS NOT NULL AND c.upstream_id IS NOT NULL AND p.status <> 'FAILED'),
  'refunds', (SELECT json_group_array(json_object('payment', p.upstream_id, 'valueCents', r.value_cents, 'description', r.description,
      'createdAt', r.created_at))
    FROM refunds r JOIN payments p ON p.id = r.payment_id
    WHERE r.workspace_id = ${ws} AND r.status = 'done' AND p.upstream_id IS NOT NULL)
) AS mirror`;
}

/** The upstream's clock: São Paulo, UTC−3 all year since 2019. An ISO instant as its date and its date-time. */
const SAO_PAULO_OFFSET_MS = -3 * 3_600_000;
const wallClock = (iso) => new Date(Date.parse(iso) + SAO_PAULO_OFFSET_MS).toISOString();
const upstreamDate = (iso) => wallClock(iso).slice(0, 10);
const upstreamDateTime = (iso) => wallClock(iso).slice(0, 19).replace("T", " ");
/** Integer cents as the upstream's JSON number of reais (14990 → 149.9). */
const reais = (cents) => (cents === null || cents === undefined ? null : cents / 100);

/**
 * The rows of `mirrorSql` as the upstream answers them: ids are the upstream's, money in reais, dates in São
 * Paulo. Ponte's CANCELED charge is the upstream's removed one (`deleted`), a CANCELED subscription its
 * removed one (INACTIVE, `deleted`); a CONFIRMED card charge is confirmed on its payment day and not yet received.
 */
export function mirrorRecords(rows) {
  const refundsOf = new Map();
  for (const r of rows.refunds) {
    const list = refundsOf.get(r.payment) ?? [];
    list.push({ value: reais(r.valueCents), description: r.description, dateCreated: upstreamDateTime(r.createdAt) });
    refundsOf.set(r.payment, list);
  }
  const customers = rows.customers.map((c) => ({
    id: c.id,
    name: c.name,
    cpfCnpj: c.cpfCnpj,
    email: c.email,
    phone: c.phone,
    mobilePhone: c.mobilePhone,
    externalReference: c.externalReference,
    dateCreated: upstreamDate(c.createdAt),
    deleted: c.deleted === 1 || c.deleted === true,
  }));
  const subscriptions = rows.subscriptions.map((s) => ({
    id: s.id,
    customer: s.customer,
    billingType: s.billingType,
    value: reais(s.valueCents),
    cycle: s.cycle,
    nextDueDate: s.nextDueDate,
    status: s.status === "CANCELED" ? "INACTIVE" : s.status,
    deleted: s.status === "CANCELED",
    description: s.description,
    externalReference: s.externalReference,
    dateCreated: upstreamDate(s.createdAt),
  }));
  const payments = rows.payments.map((p) => {
    const confirmedOnly = p.status === "CONFIRMED";
    return {
      id: p.id,
      customer: p.customer,
      subscription: p.subscription,
      billingType: p.billingType,
      value: reais(p.valueCents),
      netValue: reais(p.netValueCents),
      status: p.status === "CANCELED" ? "PENDING" : p.status,
      deleted: p.status === "CANCELED",
      dueDate: p.dueDate,
      paymentDate: confirmedOnly ? null : p.paymentDate,
      clientPaymentDate: p.paymentDate,
      confirmedDate: p.billingType === "CREDIT_CARD" ? p.paymentDate : null,
      description: p.description,
      externalReference: p.externalReference,
      dateCreated: upstreamDate(p.createdAt),
      refunds: refundsOf.get(p.id) ?? null,
    };
  });
  return { customers, subscriptions, payments };
}

/** Import bodies of at most `size` records, customers before the subscriptions and charges that name them. */
export function mirrorBatches({ customers, subscriptions, payments }, size = MIRROR_BATCH) {
  const all = [
    ...customers.map((record) => ["customers", record]),
    ...subscriptions.map((record) => ["subscriptions", record]),
    ...payments.map((record) => ["payments", record]),
  ];
  const batches = [];
  for (let i = 0; i < all.length; i += size) {
    const batch = { customers: [], subscriptions: [], payments: [] };
    for (const [kind, record] of all.slice(i, i + size)) batch[kind].push(record);
    batches.push(batch);
  }
  return batches;
}

/** A workspace's records to mirror, read from the local D1 (the state `PONTE_PERSIST_DIR` names, if set). */
export async function readDemoMirror(workspaceId) {
  const { querySql } = await import("./local.mjs");
  const [row] = querySql(mirrorSql(workspaceId));
  return mirrorRecords(JSON.parse(row.mirror));
}

/**
 * Imports `mirror` into the simulator's account of `upstreamKey` (the gateway account's key), through the running
 * local API at `baseUrl`. Resolves to the totals `{customers, subscriptions, payments}` of `{imported, existing}`;
 * throws on a refusal.
 */
export async function pushDemoMirror(baseUrl, mirror, upstreamKey, fetchFn = fetch) {
  const totals = {
    customers: { imported: 0, existing: 0 },
    subscriptions: { imported: 0, existing: 0 },
    payments: { imported: 0, existing: 0 },
  };
  for (const batch of mirrorBatches(mirror)) {
    const res = await fetchFn(`${baseUrl}/__sim/import?token=${encodeURIComponent(upstreamKey)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(batch),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`the simulator refused the demo mirror: ${res.status} ${JSON.stringify(body.errors ?? body)}`);
    for (const [kind, total] of Object.entries(totals)) {
      total.imported += body[kind].imported;
      total.existing += body[kind].existing;
    }
  }
  return totals;
}

/** One line for the logs: what the mirror put into the simulator. */
export function describeMirror(totals) {
  const { customers: c, subscriptions: s, payments: p } = totals;
  const already = c.existing + s.existing + p.existing;
  return `${c.imported} customers, ${s.imported} subscriptions and ${p.imported} charges${already > 0 ? ` (${already} already there)` : ""}`;
}

/** `npm run seed -- --demo` while the local API runs: the simulator already holds what was made through it; add the history. */
export async function mirrorIntoRunningSimulator(baseUrl, workspaceId) {
  const { DEMO } = await import("./local.mjs");
  return pushDemoMirror(baseUrl, await readDemoMirror(workspaceId), DEMO.upstreamApiKey);
}
