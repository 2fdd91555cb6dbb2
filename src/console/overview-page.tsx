// Overview: what exists in the current organization/workspace, and the latest charges.
import type { Hono } from "hono";
import { formatMoney } from "../db/money";
import type { ConsoleEnv } from "./context";
import { shellFor } from "./context";
import { Page } from "./layout";

interface Counts {
  api_keys: number;
  workspaces: number;
  members: number;
  charges: number;
  deliveries: number;
}

interface RecentDelivery {
  id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  created_at: string;
}

interface RecentCharge {
  id: string;
  status: string;
  billing_type: string;
  value_cents: number;
  due_date: string;
  created_at: string;
}

export function registerOverviewPage(app: Hono<ConsoleEnv>) {
  app.get("/", async (c) => {
    const { principal, memberships } = c.get("console");
    const org = principal.organizationId;
    const ws = principal.workspaceId;
    const [counts, recent, recentDeliveries] = await c.env.DB.batch<any>([
      c.env.DB.prepare(
        `SELECT (SELECT COUNT(*) FROM api_keys WHERE organization_id = ?1 AND revoked_at IS NULL) AS api_keys,
                (SELECT COUNT(*) FROM workspaces WHERE organization_id = ?1 AND archived_at IS NULL) AS workspaces,
                (SELECT COUNT(*) FROM memberships WHERE organization_id = ?1) AS members,
                (SELECT COUNT(*) FROM charges WHERE organization_id = ?1 AND workspace_id = ?2) AS charges,
                (SELECT COUNT(*) FROM webhook_deliveries WHERE organization_id = ?1 AND workspace_id = ?2) AS deliveries`,
      ).bind(org, ws),
      c.env.DB.prepare(
        "SELECT id, status, billing_type, value_cents, due_date, created_at FROM charges WHERE organization_id = ?1 AND workspace_id = ?2 ORDER BY created_at DESC, id DESC LIMIT 5",
      ).bind(org, ws),
      c.env.DB.prepare(
        "SELECT id, event_type, status, attempt_count, last_status_code, created_at FROM webhook_deliveries WHERE organization_id = ?1 AND workspace_id = ?2 ORDER BY created_at DESC, id DESC LIMIT 5",
      ).bind(org, ws),
    ]);
    const deliveries = (recentDeliveries?.results ?? []) as RecentDelivery[];
    const n = (counts?.results?.[0] ?? {}) as Counts;
    const charges = (recent?.results ?? []) as RecentCharge[];
    const membership = memberships.find((m) => m.organizationId === org);
    const workspace = membership?.workspaces.find((w) => w.id === ws);
    const stats: [string, number, string | null][] = [
      ["Active API keys", n.api_keys, "/console/api-keys"],
      ["Workspaces", n.workspaces, null],
      ["Members", n.members, null],
      ["Charges in this workspace", n.charges, null],
      ["Webhook deliveries", n.deliveries, "/console/webhook-logs"],
    ];
    return c.html(
      <Page title="Overview" shell={shellFor(c, "/console")}>
        <h1>{membership?.organizationName} <span class="muted">/ {workspace?.name}</span></h1>
        <p class="muted">You are signed in as {principal.role}. Environment: {principal.environment}.</p>
        <div class="grid">
          {stats.map(([label, value, href]) => (
            <div class="card">
              <div class="stat">{value ?? 0}</div>
              {href ? <a href={href}>{label}</a> : <div>{label}</div>}
            </div>
          ))}
        </div>
        <h2>Recent charges</h2>
        {charges.length === 0 ? (
          <p class="muted">No charges in this workspace yet.</p>
        ) : (
          <table>
            <thead><tr><th scope="col">Charge</th><th scope="col">Type</th><th scope="col">Value (BRL)</th><th scope="col">Status</th><th scope="col">Due</th><th scope="col">Created</th></tr></thead>
            <tbody>
              {charges.map((ch) => (
                <tr><td><code>{ch.id}</code></td><td>{ch.billing_type}</td><td>{formatMoney(ch.value_cents)}</td><td><span class="badge">{ch.status}</span></td><td>{ch.due_date}</td><td>{ch.created_at.slice(0, 16).replace("T", " ")}</td></tr>
              ))}
            </tbody>
          </table>
        )}
        <h2>Recent webhook deliveries</h2>
        {deliveries.length === 0 ? (
          <p class="muted">No webhook deliveries in this workspace yet.</p>
        ) : (
          <table>
            <thead><tr><th scope="col">Created</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last code</th></tr></thead>
            <tbody>
              {deliveries.map((d) => (
                <tr><td><a href={`/console/webhook-logs/${d.id}`}>{d.created_at.slice(0, 19).replace("T", " ")}</a></td><td><code>{d.event_type}</code></td><td><span class="badge">{d.status}</span></td><td>{d.attempt_count}</td><td>{d.last_status_code ?? "—"}</td></tr>
              ))}
            </tbody>
          </table>
        )}
      </Page>,
    );
  });
}
