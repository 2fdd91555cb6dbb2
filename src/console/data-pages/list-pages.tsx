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

/** A list page: a title, its filter bar, and the shared table with paging. */
function ListPage<T>(props: {
  c: ConsoleContext;
  title: string;
  path: string;
  fields: FilterField[];
  rows: T[];
  total: number;
  page: number;
  columns: Column<T>[];
}) {
  const { c, title, path } = props;
  return (
    <Page title={title} shell={shellFor(c, path)}>
      <h1>{title}</h1>
      {props.fields.length > 0 ? <FilterBar c={c} path={path} fields={props.fields} label={`Filter ${title.toLowerCase()}`} /> : null}
      <DataTable
        columns={props.columns}
        rows={props.rows}
        empty="Nothing matches."
        paging={{ c, path, page: props.page, total: props.total }}
      />
    </Page>
  );
}

const isoDay = (day: string | undefined, end: boolean) => (day ? `${day}${end ? "T23:59:59.999Z" : "T00:00:00.000Z"}` : undefined);

export function registerListPages(app: Hono<ConsoleEnv>) {
  app.get("/customers", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const f = filtersOf(c, ["name", "email", "cpfCnpj", "includeDeleted"] as const);
    const { rows, totalCount } = await listCustomers(deps, principal, request, f);
    return c.html(
      <ListPage
        c={c}
        title="Customers"
        path="/console/customers"
        fields={[
          { name: "name", label: "Name contains" },
          { name: "email", label: "Email" },
          { name: "cpfCnpj", label: "CPF/CNPJ" },
          { name: "includeDeleted", label: "Deleted too", options: ["true"] },
        ]}
        rows={rows}
        total={totalCount}
        page={page}
        columns={[
          { label: "Created", cell: (r) => when(r.createdAt) },
          { label: "Name", cell: (r) => (r.deleted ? `${r.name} (deleted)` : r.name) },
          { label: "CPF/CNPJ", cell: (r) => <span class="mono">{r.cpfCnpj}</span> },
          { label: "Email", cell: (r) => r.email ?? "—" },
          { label: "Sync", cell: (r) => r.syncStatus },
          { label: "Payments", cell: (r) => <a href={`/console/payments?customer=${r.id}`}>Payments</a> },
        ]}
      />,
    );
  });

  app.get("/subscriptions", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const f = filtersOf(c, ["status", "customer", "plan"] as const);
    const { rows, totalCount } = await listSubscriptions(deps, principal, request, f);
    return c.html(
      <ListPage
        c={c}
        title="Subscriptions"
        path="/console/subscriptions"
        fields={[
          { name: "status", label: "Status", options: SUBSCRIPTION_STATUSES },
          { name: "customer", label: "Customer id" },
          { name: "plan", label: "Plan id" },
        ]}
        rows={rows}
        total={totalCount}
        page={page}
        columns={[
          { label: "Created", cell: (r) => when(r.createdAt) },
          { label: "Status", cell: (r) => <Badge value={r.status} /> },
          { label: "Value", cell: (r) => <span class="mono">R$ {r.value}</span> },
          { label: "Cycle", cell: (r) => r.cycle },
          { label: "Next due", cell: (r) => r.nextDueDate },
          { label: "Customer", cell: (r) => <a href={`/console/payments?customer=${r.customer}`}>{r.customer}</a> },
        ]}
      />,
    );
  });

  app.get("/plans", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const status = c.req.query("status");
    const { rows, totalCount } = await listPlans(
      deps,
      principal,
      request,
      status === "active" || status === "archived" ? status : undefined,
    );
    return c.html(
      <ListPage
        c={c}
        title="Plans"
        path="/console/plans"
        fields={[{ name: "status", label: "Status", options: ["active", "archived"] }]}
        rows={rows}
        total={totalCount}
        page={page}
        columns={[
          { label: "Name", cell: (r) => r.name },
          { label: "Value", cell: (r) => <span class="mono">R$ {r.value}</span> },
          { label: "Cycle", cell: (r) => r.cycle },
          { label: "Billing", cell: (r) => r.billingType ?? "—" },
          { label: "Status", cell: (r) => <Badge value={r.status} /> },
          { label: "Subscriptions", cell: (r) => <a href={`/console/subscriptions?plan=${r.id}`}>Subscriptions</a> },
        ]}
      />,
    );
  });

  app.get("/gateway-logs", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const f = filtersOf(c, ["operationId", "status", "from", "to"] as const);
    const status = f.status && /^[0-9]{3}$/.test(f.status) ? Number(f.status) : undefined;
    const filters = { operationId: f.operationId, status, from: isoDay(f.from, false), to: isoDay(f.to, true) };
    const { rows, totalCount } = await listGatewayApiLogs(deps, principal, filters, request);
    return c.html(
      <ListPage
        c={c}
        title="Gateway call log"
        path="/console/gateway-logs"
        fields={[
          { name: "operationId", label: "Operation id" },
          { name: "status", label: "Upstream status", placeholder: "e.g. 400" },
          { name: "from", label: "From", type: "date" },
          { name: "to", label: "Until", type: "date" },
        ]}
        rows={rows}
        total={totalCount}
        page={page}
        columns={[
          { label: "When", cell: (r) => when(r.createdAt) },
          { label: "Operation", cell: (r) => <code>{r.operationId}</code> },
          { label: "Call", cell: (r) => <span class="mono">{`${r.method} ${r.upstreamPath}`}</span> },
          { label: "Status", cell: (r) => r.upstreamStatus ?? r.errorCode ?? "—" },
          { label: "ms", cell: (r) => r.latencyMs },
          { label: "Request", cell: (r) => <code>{r.requestId}</code> },
        ]}
      />,
    );
  });

  app.get("/audit", async (c) => {
    const { deps, principal } = c.get("console");
    const { page, request } = pageOf(c);
    const f = filtersOf(c, ["action", "targetId", "from", "to"] as const);
    const filters = { action: f.action, targetId: f.targetId, from: isoDay(f.from, false), to: isoDay(f.to, true) };
    const { rows, totalCount } = await listAuditLogs(deps, principal, filters, request);
    return c.html(
      <ListPage
        c={c}
        title="Audit log"
        path="/console/audit"
        fields={[
          { name: "action", label: "Action", placeholder: "e.g. api_key.created" },
          { name: "targetId", label: "Target id" },
          { name: "from", label: "From", type: "date" },
          { name: "to", label: "Until", type: "date" },
        ]}
        rows={rows}
        total={totalCount}
        page={page}
        columns={[
          { label: "When", cell: (r) => when(r.createdAt) },
          { label: "Action", cell: (r) => <code>{r.action}</code> },
          { label: "Target", cell: (r) => <span class="mono">{`${r.targetType} ${r.targetId}`}</span> },
          { label: "Actor", cell: (r) => <span class="mono">{`${r.actorType} ${r.actorId}`}</span> },
          { label: "Request", cell: (r) => <code>{r.requestId}</code> },
        ]}
      />,
    );
  });
}
