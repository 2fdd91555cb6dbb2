// D1 binds at most 100 parameters per statement (issue 25 item 3). src/db/in-list.ts splits every
// "id in this set" query; here on real D1: a 1,000-id set through the helper, and the Asaas dialect's
// lists at the page sizes Asaas clients use (its id lookup names the page's ids in four UNION ALL
// branches plus the tenant), which answered 500 before the split.
import { env, SELF } from "cloudflare:test";
import { and, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { inListStatements, selectInList } from "../../src/db/in-list";
import { customers } from "../../src/db/schema";
import { inTenant } from "../../src/db/tenant-scope";
import { seedBillingTenant } from "./billing-support";
import { BASE, seedTenant, type TestTenant } from "./support";

interface Row {
  id: string;
  upstreamId: string;
}

/**
 * `count` synced rows of `table` in the tenant, in one statement: ids `<prefix><12 hex>`, upstream ids
 * `<upstream>_<hex>`; payments and subscriptions belong to `customerId`.
 */
async function insertMany(
  t: TestTenant,
  table: "customers" | "payments" | "subscriptions",
  count: number,
  customerId = "",
): Promise<Row[]> {
  const prefix = crypto.randomUUID().slice(0, 24); // xxxxxxxx-xxxx-4xxx-yxxx-
  const upstream = { customers: "cus", payments: "pay", subscriptions: "sub" }[table];
  const now = new Date().toISOString();
  const rows = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)`;
  const idOf = `?2 || printf('%012x', i)`;
  const common = `${idOf}, ?3, ?4, ?5 || printf('%012x', i), 'synced', 'gateway', ?6, ?6`;
  const columns = "id, organization_id, workspace_id, upstream_id, sync_status, origin, created_at, updated_at";
  const statement = {
    customers: `${rows} INSERT INTO customers (${columns}, name, cpf_cnpj, person_type) SELECT ${common}, 'Maria ' || i, '52998224725', 'FISICA' FROM n`,
    payments: `${rows} INSERT INTO payments (${columns}, customer_id, billing_type, status, value_cents, due_date)
      SELECT ${common}, ?7, 'PIX', 'PENDING', 1000 + i, '2026-12-01' FROM n`,
    subscriptions: `${rows} INSERT INTO subscriptions (${columns}, customer_id, billing_type, value_cents, cycle, next_due_date, status)
      SELECT ${common}, ?7, 'PIX', 4990, 'MONTHLY', '2026-12-01', 'ACTIVE' FROM n`,
  }[table];
  const binds = [count, prefix, t.organizationId, t.workspaceId, `${upstream}_${prefix.replace(/-/g, "")}`, now];
  await env.DB.prepare(statement)
    .bind(...(table === "customers" ? binds : [...binds, customerId]))
    .run();
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${(i + 1).toString(16).padStart(12, "0")}`,
    upstreamId: `${upstream}_${prefix.replace(/-/g, "")}${(i + 1).toString(16).padStart(12, "0")}`,
  }));
}

describe("src/db/in-list.ts on real D1", () => {
  it("1,000 ids (and strangers, duplicates, another tenant's) come back exactly, each statement within 100 parameters", async () => {
    const t = await seedTenant();
    const other = await seedTenant();
    const mine = await insertMany(t, "customers", 1000);
    const theirs = await insertMany(other, "customers", 50);
    const db = createDb(env.DB);
    const wanted = [...mine.map((c) => c.id), ...mine.slice(0, 30).map((c) => c.id), ...theirs.map((c) => c.id), crypto.randomUUID()];
    const build = (part: string[]) =>
      db
        .select({ id: customers.id, upstreamId: customers.upstreamId })
        .from(customers)
        .where(and(inTenant(customers, t), inArray(customers.id, part)));

    const statements = inListStatements(wanted, build);
    expect(statements.length).toBeGreaterThanOrEqual(11); // 1,051 distinct ids at ≤ 98 a statement
    for (const s of statements) expect(s.toSQL().params.length).toBeLessThanOrEqual(100);

    const rows = await selectInList(db, wanted, build);
    expect(rows).toHaveLength(1000);
    expect(new Map(rows.map((r) => [r.id, r.upstreamId]))).toEqual(new Map(mine.map((c) => [c.id, c.upstreamId])));
  });

  it("counts what a statement binds besides the set: a set named in four UNION ALL branches with the tenant", async () => {
    const t = await seedTenant();
    const mine = await insertMany(t, "customers", 300);
    const db = createDb(env.DB);
    const branch = (part: string[], label: string) =>
      db
        .select({ id: customers.id, branch: sql<string>`${label}` })
        .from(customers)
        .where(and(inTenant(customers, t), inArray(customers.id, part)));
    const build = (part: string[]) => branch(part, "a").unionAll(branch(part, "b")).unionAll(branch(part, "c")).unionAll(branch(part, "d"));
    const statements = inListStatements(
      mine.map((c) => c.id),
      build,
    );
    // 4 × (organization, workspace, label) fixed; 4 per id: 22 ids a statement.
    expect(statements.map((s) => s.toSQL().params.length)).toEqual([...Array(13).fill(100), 4 * 3 + 4 * (300 - 13 * 22)]);
    const rows = await selectInList(
      db,
      mine.map((c) => c.id),
      build,
    );
    expect(rows).toHaveLength(1200);
  });

  it("an empty set runs no statement; a statement that binds over 100 without its set is refused, not sent", async () => {
    const db = createDb(env.DB);
    const build = (part: string[]) => db.select().from(customers).where(inArray(customers.id, part));
    expect(inListStatements([], build)).toEqual([]);
    expect(await selectInList(db, [], build)).toEqual([]);
    const tooWide = (part: string[]) =>
      db
        .select()
        .from(customers)
        .where(
          and(
            inArray(
              customers.name,
              Array.from({ length: 100 }, (_, i) => `n${i}`),
            ),
            inArray(customers.id, part),
          ),
        );
    expect(() => inListStatements(["a", "b"], tooWide)).toThrow(/binds 100 parameters besides its set/);
  });
});

describe("Asaas dialect lists at Asaas page sizes (the id lookup stays under D1's limit)", () => {
  const asaas = async (key: string, path: string) => {
    const res = await SELF.fetch(`${BASE}/api/v1${path}`, { headers: { access_token: key } });
    return { status: res.status, body: (await res.json()) as { data: { id: string; customer?: string }[]; totalCount: number } };
  };

  it("customers, payments and subscriptions answer 200 with upstream ids at limit=100 (payments also at limit=20)", async () => {
    const t = await seedBillingTenant({ webhooks: false });
    const custs = await insertMany(t, "customers", 120);
    const [payer, subscriber] = custs as [Row, Row];
    const pays = await insertMany(t, "payments", 120, payer.id);
    const subs = await insertMany(t, "subscriptions", 120, subscriber.id);
    const upstreamIds = new Set([...custs, ...pays, ...subs].map((r) => r.upstreamId));

    for (const [path, size] of [
      ["/customers?limit=100", 100],
      ["/payments?limit=20", 20],
      ["/payments?limit=100", 100],
      ["/subscriptions?limit=100", 100],
    ] as const) {
      const res = await asaas(t.key, path);
      expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      expect(res.body.data, path).toHaveLength(size);
      expect(res.body.totalCount, path).toBe(120);
      for (const item of res.body.data) expect(upstreamIds.has(item.id), `${path} answered ${item.id}`).toBe(true);
    }
    const payments = await asaas(t.key, "/payments?limit=100");
    for (const p of payments.body.data) expect(p.customer).toBe(payer.upstreamId);
    const subscriptions = await asaas(t.key, "/subscriptions?limit=100");
    for (const s of subscriptions.body.data) expect(s.customer).toBe(subscriber.upstreamId);
  }, 60_000);
});
