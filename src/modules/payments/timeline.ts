// A payment's status timeline for the console: the payment.* events recorded for it, oldest first.
import { and, asc, like, sql } from "drizzle-orm";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { events } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { findPaymentRow } from "./lifecycle";

export interface TimelineEntry {
  eventId: string;
  type: string;
  createdAt: string;
  status: string | null;
}

export async function paymentTimeline(deps: Deps, principal: Principal, id: string): Promise<TimelineEntry[]> {
  requirePermission(principal, "payments.read");
  await findPaymentRow(deps, tenantOf(principal), id); // 404 for another tenant's payment
  const rows = await deps.db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data })
    .from(events)
    .where(and(inTenant(events, principal), like(events.type, "payment.%"), sql`json_extract(${events.data}, '$.id') = ${id}`))
    .orderBy(asc(events.createdAt), asc(events.id))
    .all();
  return rows.map((r) => ({
    eventId: r.id,
    type: r.type,
    createdAt: r.createdAt,
    status: typeof r.data.status === "string" ? r.data.status : null,
  }));
}
