// /console/customers, /console/subscriptions, /console/plans, /console/gateway-logs, /console/audit: paginated,
// filtered tables over the same services the API uses (each refuses without its read permission, as the API does).
import type { Hono } from "hono";
import { listAuditLogs } from "../../modules/audit/service";
import { listCustomers } from "../../modules/customers/service";
import { listGatewayApiLogs } from "../../modules/gateway-api-logs/service";
import { listPlans } from "../../modules/plans/service";
import { SUBSCRIPTION_STATUSES } from "../../modules/subscriptions/schemas";
import { listSubscriptions } from "../../modules/subscriptions/service";
import { type ConsoleContext, type ConsoleEnv, shellFor } from "../context";
import { Page } from "../layout";
import { type Column, DataTable, pageOf } from "../parts/data-table";
import { FilterBar, type FilterField, filtersOf } from "../parts/filter-bar";
import { Badge, when } from "./common";

/** The services' window of rows: `?page=N` as { limit, offset }. */
type PageRequest = ReturnType<typeof pageOf>["request"];

const isoDay = (day: string | undefined, end: boolean) => (day ? `${day}${end ? "T23:59:59.999Z" : "T00:00:00.000Z"}` : undefined);

/**
 * GET /console<route>: a list page — a title, its filter bar over `filters` (the query's names), and the shared
 * table with paging over what `load` returns for those filters and the page.
 */
function listPage<K extends string, T>(
  app: Hono<ConsoleEnv>,
  route: string,
  spec: {
    title: string;
    filters: readonly K[];
    fields: FilterField[];
    load: (c: ConsoleContext, f: Partial<Record<K, string>>, page: PageRequest) => Promise<{ rows: T[]; totalCount: number }>;
    columns: Column<T>[];
  },
) {
  const path = `/console${route}`;
  app.get(route, async (c) => {
    const { page, request } = pageOf(c);
    const { rows, totalCount } = await spec.load(c, filtersOf(c, spec.filters), request);
    return c.html(
      <Page title={spec.title} shell={shellFor(c, path)}>
        <h1>{spec.title}</h1>
        <FilterBar c={c} path={path} fields={spec.fields} label={`Filter ${spec.title.toLowerCase()}`} />
        <DataTable columns={spec.columns} rows={rows} empty="Nothing matches." paging={{ c, path, page, total: totalCount }} />
      </Page>,
    );
  });
}

const session = (c: ConsoleContext) => c.get("console");

export function registerListPages(app: Hono<ConsoleEnv>) {
  listPage(app, "/customers", {
    title: "Customers",
    filters: ["name", "email", "cpfCnpj", "includeDeleted"],
    fields: [
      { name: "name", label: "Name contains" },
      { name: "email", label: "Email" },
      { name: "cpfCnpj", label: "CPF/CNPJ" },
      { name: "includeDeleted", label: "Deleted too", options: ["true"] },
    ],
    load: (c, f, page) => listCustomers(session(c).deps, session(c).principal, page, f),
    columns: [
      { label: "Created", cell: (r) => when(r.createdAt) },
      { label: "Name", cell: (r) => (r.deleted ? `${r.name} (deleted)` : r.name) },
      { label: "CPF/CNPJ", cell: (r) => <span class="mono">{r.cpfCnpj}</span> },
      { label: "Email", cell: (r) => r.email ?? "—" },
      { label: "Sync", cell: (r) => r.syncStatus },
      { label: "Payments", cell: (r) => <a href={`/console/payments?customer=${r.id}`}>Payments</a> },
    ],
  });

  listPage(app, "/subscriptions", {
    title: "Subscriptions",
    filters: ["status", "customer", "plan"],
    fields: [
      { name: "status", label: "Status", options: SUBSCRIPTION_STATUSES },
      { name: "customer", label: "Customer id" },
      { name: "plan", label: "Plan id" },
    ],
    load: (c, f, page) => listSubscriptions(session(c).deps, session(c).principal, page, f),
    columns: [
      { label: "Created", cell: (r) => when(r.createdAt) },
      { label: "Status", cell: (r) => <Badge value={r.status} /> },
      { label: "Value", cell: (r) => <span class="mono">R$ {r.value}</span> },
      { label: "Cycle", cell: (r) => r.cycle },
      { label: "Next due", cell: (r) => r.nextDueDate },
      { label: "Customer", cell: (r) => <a href={`/console/payments?customer=${r.customer}`}>{r.customer}</a> },
    ],
  });

  listPage(app, "/plans", {
    title: "Plans",
    filters: ["status"],
    fields: [{ name: "status", label: "Status", options: ["active", "archived"] }],
    load: (c, { status }, page) =>
      listPlans(session(c).deps, session(c).principal, page, status === "active" || status === "archived" ? status : undefined),
    columns: [
      { label: "Name", cell: (r) => r.name },
      { label: "Value", cell: (r) => <span class="mono">R$ {r.value}</span> },
      { label: "Cycle", cell: (r) => r.cycle },
      { label: "Billing", cell: (r) => r.billingType ?? "—" },
      { label: "Status", cell: (r) => <Badge value={r.status} /> },
      { label: "Subscriptions", cell: (r) => <a href={`/console/subscriptions?plan=${r.id}`}>Subscriptions</a> },
    ],
  });

  listPage(app, "/gateway-logs", {
    title: "Gateway call log",
    filters: ["operationId", "status", "from", "to"],
    fields: [
      { name: "operationId", label: "Operation id" },
      { name: "status", label: "Upstream status", placeholder: "e.g. 400" },
      { name: "from", label: "From", type: "date" },
      { name: "to", label: "Until", type: "date" },
    ],
    load: (c, f, page) => {
      const status = f.status && /^[0-9]{3}$/.test(f.status) ? Number(f.status) : undefined;
      const filters = { operationId: f.operationId, status, from: isoDay(f.from, false), to: isoDay(f.to, true) };
      return listGatewayApiLogs(session(c).deps, session(c).principal, filters, page);
    },
    columns: [
      { label: "When", cell: (r) => when(r.createdAt) },
      { label: "Operation", cell: (r) => <code>{r.operationId}</code> },
      { label: "Call", cell: (r) => <span class="mono">{`${r.method} ${r.upstreamPath}`}</span> },
      { label: "Status", cell: (r) => r.upstreamStatus ?? r.errorCode ?? "—" },
      { label: "ms", cell: (r) => r.latencyMs },
      { label: "Request", cell: (r) => <code>{r.requestId}</code> },
    ],
  });

  listPage(app, "/audit", {
    title: "Audit log",
    filters: ["action", "targetId", "from", "to"],
    fields: [
      { name: "action", label: "Action", placeholder: "e.g. api_key.created" },
      { name: "targetId", label: "Target id" },
      { name: "from", label: "From", type: "date" },
      { name: "to", label: "Until", type: "date" },
    ],
    load: (c, f, page) => {
      const filters = { action: f.action, targetId: f.targetId, from: isoDay(f.from, false), to: isoDay(f.to, true) };
      return listAuditLogs(session(c).deps, session(c).principal, filters, page);
    },
    columns: [
      { label: "When", cell: (r) => when(r.createdAt) },
      { label: "Action", cell: (r) => <code>{r.action}</code> },
      { label: "Target", cell: (r) => <span class="mono">{`${r.targetType} ${r.targetId}`}</span> },
      { label: "Actor", cell: (r) => <span class="mono">{`${r.actorType} ${r.actorId}`}</span> },
      { label: "Request", cell: (r) => <code>{r.requestId}</code> },
    ],
  });
}
