// How long the organization's log store keeps each log (src/db/org-logs/retention.ts has the defaults
// and bounds). The setting lives in D1 with the organization; a change is audited and handed to the
// organization's OrgLogDO at once, whose retention alarm applies it.
import { eq } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { type LogRetention, RETENTION_BOUNDS } from "../../db/org-logs/retention";
import { orgLogs } from "../../db/org-logs/stub";
import { organizations } from "../../db/schema";
import { auditEntry } from "../audit/service";
import { currentOrganization } from "./service";

type OrganizationRow = typeof organizations.$inferSelect;

const retentionOf = (row: OrganizationRow): LogRetention => ({
  gatewayApiLogDays: row.gatewayApiLogRetentionDays,
  webhookAttemptDays: row.webhookAttemptRetentionDays,
  auditLogDays: row.auditLogRetentionDays,
});

export const presentRetention = (retention: LogRetention) => ({ object: "log_retention" as const, ...retention, bounds: RETENTION_BOUNDS });

export async function logRetention(deps: Deps, principal: Principal) {
  requirePermission(principal, "organizations.read");
  return presentRetention(retentionOf(await currentOrganization(deps, principal)));
}

/** Applies the periods given (the others are kept); the route has checked each against its bounds. */
export async function updateLogRetention(deps: Deps, principal: Principal, change: Partial<LogRetention>) {
  requirePermission(principal, "organizations.manage");
  const row = await currentOrganization(deps, principal);
  const before = retentionOf(row);
  const after: LogRetention = { ...before, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  await deps.db.batch([
    deps.db
      .update(organizations)
      .set({
        gatewayApiLogRetentionDays: after.gatewayApiLogDays,
        webhookAttemptRetentionDays: after.webhookAttemptDays,
        auditLogRetentionDays: after.auditLogDays,
        updatedAt: deps.now().toISOString(),
      })
      .where(eq(organizations.id, row.id)),
    auditEntry(deps, principal, {
      action: "organization.log_retention_updated",
      targetType: "organization",
      targetId: row.id,
      metadata: { before, after },
    }),
  ]);
  // Awaited: a failure here is a 5xx the caller retries (the update is idempotent), never a silent mismatch.
  await orgLogs(deps.env, row.id).setRetention(after);
  return presentRetention(after);
}
