// An event row that is written only if the statement just before it in the batch changed a row.
// Pairing a guarded UPDATE (`… WHERE status IN (…)`) with this insert makes "state changed" and
// "event recorded" one atomic fact, so a webhook that repeats what Ponte already applied emits nothing.
import { sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { newId } from "../lib/ids";
import { events } from "../db/schema";
import type { EventKind } from "../events/kinds";
import type { RecordedEvent } from "../events/outbox";
import type { Tenant } from "../lib/tenant";

export function recordEventIfChanged(deps: Deps, tenant: Tenant, type: EventKind, data: Record<string, unknown>) {
  const event: RecordedEvent = { id: newId(), type, createdAt: deps.now().toISOString() };
  // insert … select lists the table's columns in schema order: id, organization_id, workspace_id, type, data, created_at, fanned_out_at.
  const statement = deps.db.insert(events).select(
    sql`SELECT ${event.id}, ${tenant.organizationId}, ${tenant.workspaceId}, ${type}, ${JSON.stringify(data)}, ${event.createdAt}, NULL
        WHERE changes() > 0`,
  );
  return { event, statement };
}

/** Rows changed by a batch item that was a run statement (UPDATE/INSERT/DELETE). */
export function changedRows(result: unknown): number {
  return (result as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0;
}
