// Overview: what exists in the current organization/workspace, the latest payments and webhook deliveries.
// Workspace data comes from the modules' own list functions (scoped by organization AND workspace there);
// each section appears only when the role may read it.
import type { Hono } from "hono";
import type { Permission } from "../lib/permissions";
import { listCustomers } from "../modules/customers/service";
import { listPayments } from "../modules/payments/service";
import { logRetention } from "../modules/organizations/retention";
import { listDeliveries } from "../modules/webhook-logs/service";
import type { ConsoleEnv } from "./context";
import { shellFor } from "./context";
import { Page } from "./layout";
import { DataTable } from "./parts/data-table";

interface OrgCounts {
  api_keys: number;
  workspaces: number;
  members: number;
}

const RECENT = { limit: 5, offset: 0 };
const NONE = { rows: [], totalCount: 0 };
const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

export function registerOverviewPage(app: Hono<ConsoleEnv>) {
  app.get("/", async (c) => {
    const { principal, memberships, deps } = c.get("console");
    const org = principal.organizationId;
    const may = (p: Permission) => principal.permissions.has(p);
    // Organization-wide counts have no list function that fits; one read-only query scoped by organization.
    const [counts, payments, customers, deliveries, retention] = await Promise.all([
      c.env.DB.prepare(
        `SELECT (SELECT COUNT(*) FROM api_keys WHERE organization_id = ?1 AND revoked_at IS NULL) AS api_keys,
                (SELECT COUNT(*) FROM workspaces WHERE organization_id = ?1 AND archived_at IS NULL) AS workspaces,
                (SELECT COUNT(*) FROM memberships WHERE organization_id = ?1) AS members`,
      )
        .bind(org)
        .first<OrgCounts>(),
      may("payments.read") ? listPayments(deps, principal, RECENT, {}) : NONE,
      may("customers.read") ? listCustomers(deps, principal, { limit: 1, offset: 0 }, {}) : NONE,
      may("webhook_endpoints.read") ? listDeliveries(deps, principal, {}, RECENT) : NONE,
      may("organizations.read") ? logRetention(deps, principal) : null,
    ]);
    const membership = memberships.find((m) => m.organizationId === org);
    const workspace = membership?.workspaces.find((w) => w.id === principal.workspaceId);
    const stats: [string, number | undefined, string | null, boolean][] = [
      ["Active API keys", counts?.api_keys, "/console/api-keys", may("api_keys.read")],
      ["Workspaces", counts?.workspaces, null, true],
      ["Members", counts?.members, null, true],
      ["Payments in this workspace", payments.totalCount, null, may("payments.read")],
      ["Customers in this workspace", customers.totalCount, null, may("customers.read")],
      ["Webhook deliveries", deliveries.totalCount, "/console/webhook-logs", may("webhook_endpoints.read")],
    ];
    return c.html(
      <Page title="Overview" shell={shellFor(c, "/console")}>
        <h1>
          {membership?.organizationName} <span class="muted">/ {workspace?.name}</span>
        </h1>
        <p class="muted">
          You are signed in as {principal.role}. Environment: {principal.environment}.
        </p>
        {retention ? (
          <p class="muted" data-retention>
            Logs kept: upstream calls {retention.gatewayApiLogDays} days, webhook attempts {retention.webhookAttemptDays} days, audit log{" "}
            {retention.auditLogDays} days (PATCH /api/v1/organizations/current/retention).
          </p>
        ) : null}
        <div class="grid">
          {stats
            .filter(([, , , shown]) => shown)
            .map(([label, value, href]) => (
              <div class="card" data-stat={label}>
                <div class="stat">{value ?? 0}</div>
                {href ? <a href={href}>{label}</a> : <div>{label}</div>}
              </div>
            ))}
        </div>
        {may("payments.read") ? (
          <>
            <h2>Recent payments</h2>
            <DataTable
              rows={payments.rows}
              empty="No payments in this workspace yet."
              attrs={{ "data-recent": "payments" }}
              columns={[
                { label: "Payment", cell: (p) => <code>{p.id}</code> },
                { label: "Billing type", cell: (p) => p.billingType },
                { label: "Value (BRL)", cell: (p) => p.value },
                { label: "Status", cell: (p) => <span class="badge">{p.status}</span> },
                { label: "Due", cell: (p) => p.dueDate },
                { label: "Created", cell: (p) => when(p.createdAt) },
              ]}
            />
          </>
        ) : null}
        {may("webhook_endpoints.read") ? (
          <>
            <h2>Recent webhook deliveries</h2>
            <DataTable
              rows={deliveries.rows}
              empty="No webhook deliveries in this workspace yet."
              attrs={{ "data-recent": "deliveries" }}
              columns={[
                { label: "Created", cell: (d) => d.createdAt.slice(0, 19).replace("T", " "), href: (d) => `/console/webhook-logs/${d.id}` },
                { label: "Kind", cell: (d) => <code>{d.eventType}</code> },
                { label: "Status", cell: (d) => <span class="badge">{d.status}</span> },
                { label: "Attempts", cell: (d) => d.attemptCount },
                { label: "Last code", cell: (d) => d.lastStatusCode ?? "—" },
              ]}
            />
          </>
        ) : null}
      </Page>,
    );
  });
}
