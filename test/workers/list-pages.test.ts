// Every list at full page size (issue 25), generated: each paginated GET of the OpenAPI document (native
// compatibility lists and the platform's lists) and each passthrough list of the catalogue, in every
// dialect (Bearer under /api/v1, access_token under /api/v1, access_token under /v3), asked for
// limit=100, a page past the first hundred, the page past the end, and once per documented filter,
// against a workspace holding the demo history (demo-workspace.ts: ~1,300 charges, ~240 customers and
// subscriptions) and a simulated upstream account holding more than a page of charges. A list added to
// the app or the catalogue is covered without a test written for it.
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../src/compat/catalogue";
import { expectFiltered, planFilter } from "./filter-checks";
import { clearSimRequests, simRequests, upstream } from "./gateway-support";
import {
  type Answer,
  DIALECTS,
  type Dialect,
  documentedLists,
  expectConsistent,
  expectVocabulary,
  getList,
  type ListOperation,
  namedAsList,
  type Page,
  pageOf,
  passthroughLists,
} from "./list-operations";
import { openApiDocument } from "./openapi-operations";
import { seedDemoWorkspace, type DemoWorkspace } from "./demo-workspace";
import { BASE } from "./support";
import { upstreamShape } from "../../src/compat/upstream-shapes";
import { FILTER_SAMPLES, NAMED_LIST_BUT_ONE_OBJECT, OFFSET_IS_PAGE_NUMBER } from "./upstream-lists";

const DOCUMENTED = documentedLists(await openApiDocument());
const PASSTHROUGH = passthroughLists();
const LISTS = [...DOCUMENTED, ...PASSTHROUGH];
const LIMIT = 100;
/** A case makes up to ~25 requests (a walk through every page, a list's filters): room for a loaded 2-core machine. */
const SLOW = 30_000;

/** Records of the simulated upstream account that only the upstream knows (Ponte has no row for them). */
interface UpstreamRecords {
  customer: string;
  subscription: string;
  payment: string;
  payments: number;
  /** A record of the upstream account per resource that passthrough lists hang off (`/installments/{id}/payments`). */
  parents: Record<string, string>;
}

let demo: DemoWorkspace;
let upstreamRecords: UpstreamRecords;
/** Whether the worker serves the upstream's own layout under /v3 (branch dialect-layout adds it). */
let servesV3 = false;
/** A record of the workspace per resource that lists hang off (`/payments/{id}/refunds`): its UUID and upstream id. */
const parents = new Map<string, { id: string; upstreamId: string }>();

async function created<T extends { id: string }>(res: Promise<{ status: number; body: unknown }>, what: string): Promise<T> {
  const { status, body } = await res;
  if (status !== 200) throw new Error(`simulator: ${what} answered ${status} ${JSON.stringify(body)}`);
  return body as T;
}

/** A customer with a monthly subscription (advanced three times) and 104 more charges: more than a page upstream. */
async function seedUpstreamRecords(token: string): Promise<UpstreamRecords> {
  const due = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const customer = await created(
    upstream(token, "POST", "/v3/customers", { name: "Cliente Upstream", cpfCnpj: "52998224725" }),
    "customer",
  );
  const subscription = await created(
    upstream(token, "POST", "/v3/subscriptions", {
      customer: customer.id,
      billingType: "BOLETO",
      value: 49.9,
      nextDueDate: due(5),
      cycle: "MONTHLY",
    }),
    "subscription",
  );
  for (let i = 0; i < 3; i++)
    await created(upstream(token, "POST", `/__sim/subscriptions/${subscription.id}/advance?token=${encodeURIComponent(token)}`), "advance");
  const payments: { id: string }[] = [];
  for (let batch = 0; batch < 4; batch++)
    payments.push(
      ...(await Promise.all(
        Array.from({ length: 26 }, (_, i) =>
          created(
            upstream(token, "POST", "/v3/payments", {
              customer: customer.id,
              billingType: i % 2 ? "PIX" : "BOLETO",
              value: 10 + batch * 26 + i,
              dueDate: due(1 + i),
            }),
            "payment",
          ),
        ),
      )),
    );
  const payment = payments[0]?.id ?? "";
  return {
    customer: customer.id,
    subscription: subscription.id,
    payment,
    payments: payments.length + 4,
    parents: await seedUpstreamParents(token, customer.id, payments[1]?.id ?? "", due),
  };
}

/**
 * The records the simulator must hold for a passthrough list under a path id (it answers 404 for any
 * other id): an installment plan, a payment link, a dunning of an overdue charge, a monthly Pix
 * recurrence and a subaccount, made through the upstream's own API.
 */
async function seedUpstreamParents(token: string, customer: string, overdue: string, due: (days: number) => string) {
  const [installment, link, account] = await Promise.all([
    created(
      upstream(token, "POST", "/v3/installments", {
        customer,
        billingType: "BOLETO",
        dueDate: due(3),
        installmentCount: 3,
        totalValue: 300,
      }),
      "installment plan",
    ),
    created(
      upstream(token, "POST", "/v3/paymentLinks", { name: "Plano Pro", billingType: "UNDEFINED", chargeType: "DETACHED", value: 99.9 }),
      "payment link",
    ),
    created(
      upstream(token, "POST", "/v3/accounts", {
        name: "Loja Filial",
        email: "filial@example.com",
        cpfCnpj: "11222333000181",
        mobilePhone: "11987654321",
        incomeValue: 50000,
        address: "Rua A",
        addressNumber: "10",
        province: "Centro",
        postalCode: "01001000",
      }),
      "subaccount",
    ),
  ]);
  await created(upstream(token, "POST", `/v3/sandbox/payment/${overdue}/overdue`), "overdue");
  const dunning = await created(upstream(token, "POST", "/v3/paymentDunnings", { payment: overdue, type: "CREDIT_BUREAU" }), "dunning");
  await created(
    upstream(token, "POST", "/v3/transfers", {
      value: 25,
      pixAddressKey: "financeiro@example.com",
      pixAddressKeyType: "EMAIL",
      scheduleDate: due(2),
      recurring: { frequency: "MONTHLY", quantity: 3 },
    }),
    "recurring transfer",
  );
  const recurrings = await upstream<{ data?: { id: string }[] }>(token, "GET", "/v3/pix/transactions/recurrings");
  const recurring = recurrings.body.data?.[0]?.id;
  if (!recurring) throw new Error(`simulator: no Pix recurrence after a recurring transfer: ${JSON.stringify(recurrings.body)}`);
  return {
    customers: customer,
    payments: overdue,
    installments: installment.id,
    paymentLinks: link.id,
    paymentDunnings: dunning.id,
    recurrings: recurring,
    accounts: account.id,
  };
}

beforeAll(async () => {
  demo = await seedDemoWorkspace();
  const started = performance.now();
  upstreamRecords = await seedUpstreamRecords(demo.upstreamKey);
  const refunded = await env.DB.prepare(
    `SELECT p.id, p.upstream_id AS upstreamId FROM payments p JOIN refunds r ON r.payment_id = p.id
     WHERE p.workspace_id = ? GROUP BY p.id ORDER BY count(*) DESC, p.id LIMIT 1`,
  )
    .bind(demo.workspaceId)
    .first<{ id: string; upstreamId: string }>();
  if (refunded) parents.set("payments", refunded);
  const customer = await env.DB.prepare("SELECT id, upstream_id AS upstreamId FROM customers WHERE workspace_id = ? ORDER BY id LIMIT 1")
    .bind(demo.workspaceId)
    .first<{ id: string; upstreamId: string }>();
  if (customer) parents.set("customers", customer);
  // The /v3 layout is there when the worker answers its health check or a list under it (not the 404 of an unknown route).
  const probes = await Promise.all([
    SELF.fetch(`${BASE}/v3/health`),
    SELF.fetch(`${BASE}/v3/customers?limit=1`, { headers: { access_token: demo.key } }),
  ]);
  servesV3 = probes.some((res) => res.status !== 404);
  console.info(
    `list-pages fixture: demo history ${JSON.stringify(demo.counts)} in ${demo.buildMs.toFixed(0)} ms; ` +
      `${upstreamRecords.payments} upstream charges in ${(performance.now() - started).toFixed(0)} ms; /v3 served: ${servesV3}`,
  );
}, 60_000);

/** The path for this dialect: a workspace record where the list hangs off one (UUID in Bearer, upstream id in the dialect). */
function pathFor(op: ListOperation, dialect: Dialect): string {
  const segments = op.path.split("/");
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const resource = segments[segments.indexOf(`{${name}}`) - 1] ?? "";
    if (op.passthrough) {
      // A record only the upstream holds (Ponte has no row for it): its upstream id, in every dialect.
      const held = resource === "subscriptions" ? upstreamRecords.subscription : upstreamRecords.parents[resource];
      if (!held) throw new Error(`${op.label}: no upstream record of '${resource}' in the fixture: add one in seedUpstreamParents`);
      return held;
    }
    const parent = parents.get(resource);
    if (!parent) throw new Error(`${op.label}: no record of '${resource}' with children in the fixture: add one in beforeAll`);
    return dialect.shape === "asaas" ? parent.upstreamId : parent.id;
  });
}

const substitute = (sample: string) =>
  sample
    .replace("$customer", upstreamRecords.customer)
    .replace("$subscription", upstreamRecords.subscription)
    .replace("$payment", upstreamRecords.payment);

/** The /v3 cases wait for the layout (branch dialect-layout): skipped, saying why, while the worker does not serve it. */
function skipUnlessServed(dialect: Dialect, ctx: { skip: (note?: string) => never }) {
  if (dialect.root === "/v3" && !servesV3)
    ctx.skip("the worker answers neither /v3/health nor /v3/customers: the /v3 layout is not on this branch");
}

const ids = (page: Page) => page.items.map((i) => String(i.id));

async function pageAt(op: ListOperation, dialect: Dialect, path: string, query: Record<string, string | number>): Promise<Page> {
  // The municipal services take the page's number as `offset` (position / limit) and answer its position.
  const pageNumber = OFFSET_IS_PAGE_NUMBER.has(op.operationId) && query.offset !== undefined;
  const sent = pageNumber ? { ...query, offset: Math.floor(Number(query.offset) / LIMIT) } : query;
  const answer: Answer = await getList(dialect, demo.key, path, sent);
  const page = pageOf(op, dialect, answer);
  expectConsistent(
    page,
    { limit: LIMIT, offset: Number(query.offset ?? 0) },
    `${dialect.name} ${op.label}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
  );
  expectVocabulary(op, dialect, page, `${dialect.name} ${op.label}`);
  return page;
}

const CASES = LISTS.flatMap((op) =>
  DIALECTS.filter((d) => op.catalogue || !d.catalogueOnly).map((d) => [`${op.label} — ${d.name}`, op, d] as const),
);

describe("the lists", () => {
  it("are derived from the document and the catalogue, and the fixture is at real size", () => {
    expect(DOCUMENTED.length).toBeGreaterThanOrEqual(20);
    expect(PASSTHROUGH.length).toBeGreaterThanOrEqual(35);
    // Every native catalogue list is documented as paginated.
    const nativeLists = CATALOGUE.filter((op) => op.kind === "native" && op.method === "GET" && namedAsList(op)).map(
      (op) => op.operationId,
    );
    expect(nativeLists.filter((id) => !DOCUMENTED.some((d) => d.operationId === id))).toEqual([]);
    expect(demo.counts.payments).toBeGreaterThanOrEqual(1000);
    expect(demo.counts.customers).toBeGreaterThanOrEqual(200);
    expect(demo.counts.subscriptions).toBeGreaterThanOrEqual(200);
    expect(upstreamRecords.payments).toBeGreaterThan(LIMIT);
  });

  it("cover every passthrough list of the catalogue: a list named so is a list in the generated shapes, and every documented filter has a sample", () => {
    const passthroughGets = CATALOGUE.filter((op) => op.kind === "passthrough" && op.method === "GET");
    const namedButNotList = passthroughGets.filter((op) => namedAsList(op) && upstreamShape(op.operationId)?.response !== "list");
    expect(namedButNotList.map((op) => op.operationId)).toEqual([...NAMED_LIST_BUT_ONE_OBJECT]);
    expect(PASSTHROUGH.flatMap((op) => op.filters.filter((f) => f.sample === undefined).map((f) => `${op.operationId} ${f.name}`))).toEqual(
      [],
    );
    const documented = new Map(PASSTHROUGH.map((op) => [op.operationId, new Set(op.filters.map((f) => f.name))]));
    const stale = Object.entries(FILTER_SAMPLES).flatMap(([id, samples]) =>
      Object.keys(samples)
        .filter((name) => !documented.get(id)?.has(name))
        .map((name) => `${id} ${name}`),
    );
    expect(stale).toEqual([]);
    expect([...OFFSET_IS_PAGE_NUMBER].filter((id) => !documented.has(id))).toEqual([]);
  });
});

describe("every list, every dialect: limit=100, the page past the first hundred, past the end, and each documented filter", () => {
  it.for(CASES)("%s", { timeout: SLOW }, async ([, op, dialect], ctx) => {
    skipUnlessServed(dialect, ctx);
    const path = pathFor(op, dialect);
    if (op.passthrough) await clearSimRequests(demo.upstreamKey);
    const first = await pageAt(op, dialect, path, { limit: LIMIT });
    const second = await pageAt(op, dialect, path, { limit: LIMIT, offset: LIMIT });
    expect(
      ids(second).filter((id) => ids(first).includes(id)),
      "pages overlap",
    ).toEqual([]);
    expect(second.totalCount).toBe(first.totalCount);
    if (first.totalCount > LIMIT) {
      expect(first.hasMore).toBe(true);
      const end = await pageAt(op, dialect, path, { limit: LIMIT, offset: first.totalCount });
      expect([end.items.length, end.hasMore]).toEqual([0, false]);
    }
    await Promise.all(
      op.filters.map(async (filter) => {
        if (op.passthrough) return pageAt(op, dialect, path, { limit: LIMIT, [filter.name]: substitute(filter.sample ?? "") });
        const plan = planFilter(filter, first.items);
        const filtered = await pageAt(op, dialect, path, { limit: LIMIT, [filter.name]: plan.value });
        expectFiltered(plan, first, filtered, `${dialect.name} ${op.label}?${filter.name}=${plan.value}`);
      }),
    );
    if (op.passthrough) {
      // Ponte forwards each filter to the upstream exactly as sent.
      const sent = (await simRequests(demo.upstreamKey)).map((r) => new URLSearchParams(r.query));
      for (const filter of op.filters)
        expect(
          sent.some((q) => q.get(filter.name) === substitute(filter.sample ?? "") && q.get("limit") === String(LIMIT)),
          `${filter.name} reached the upstream`,
        ).toBe(true);
    }
  });
});

describe("at real size", () => {
  /** Every page of a list at limit=100, in order: no record twice, none missing, hasMore true until the last. */
  async function walk(op: ListOperation, dialect: Dialect) {
    const seen = new Set<string>();
    let page: Page;
    let offset = 0;
    do {
      page = await pageAt(op, dialect, op.path, { limit: LIMIT, offset });
      for (const id of ids(page)) seen.add(id);
      offset += LIMIT;
      expect(page.hasMore, `${dialect.name} ${op.label} at offset ${page.offset}`).toBe(offset < page.totalCount);
    } while (page.hasMore);
    expect(seen.size).toBe(page.totalCount);
    return page.totalCount;
  }
  const native = (path: string) => {
    const op = DOCUMENTED.find((o) => o.path === path);
    if (!op) throw new Error(`${path} is not a documented list`);
    return op;
  };
  const everyDialect = DIALECTS.map((d) => [d.name, d] as const);

  it.for(everyDialect)("payments page through every record, 100 at a time — %s", { timeout: SLOW }, async ([, dialect], ctx) => {
    skipUnlessServed(dialect, ctx);
    // Customers and subscriptions (3 pages each) are asked at offsets 0, 100 and the end above.
    expect(await walk(native("/api/v1/payments"), dialect)).toBe(demo.counts.payments);
  });

  it.for(everyDialect)("status=RECEIVED on payments answers exactly the RECEIVED charges — %s", async ([, dialect], ctx) => {
    skipUnlessServed(dialect, ctx);
    const received = await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE workspace_id = ? AND status = 'RECEIVED'")
      .bind(demo.workspaceId)
      .first<{ n: number }>();
    const op = native("/api/v1/payments");
    const page = await pageAt(op, dialect, op.path, { limit: LIMIT, status: "RECEIVED" });
    expect(received?.n).toBeGreaterThan(LIMIT);
    expect(page.totalCount).toBe(received?.n);
    expect([page.items.length, page.hasMore]).toEqual([LIMIT, true]);
    expect(page.items.filter((p) => p.status !== "RECEIVED")).toEqual([]);
  });
});
