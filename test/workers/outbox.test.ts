// Writing events and conditional rows: every value lands in its named column, and a conditional row is
// written only when the statement before it in the batch changed something.
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { changedRows, insertIfChanged, guardedSelect } from "../../src/db/guarded-insert";
import { events, refunds } from "../../src/db/schema";
import { recordEvent, recordEventIfChanged } from "../../src/events/outbox";
import { newId } from "../../src/lib/ids";
import { testDeps } from "./billing-support";

const tenant = () => ({ organizationId: newId(), workspaceId: newId() });
const at = new Date("2026-03-04T05:06:07.000Z");

async function storedEvent(id: string) {
  return env.DB.prepare("SELECT id, organization_id, workspace_id, type, data, created_at, fanned_out_at FROM events WHERE id = ?")
    .bind(id)
    .first();
}

describe("recordEvent / recordEventIfChanged (src/events/outbox.ts)", () => {
  it("recordEvent stores each value in its own column", async () => {
    const deps = testDeps({ now: () => at });
    const t = tenant();
    const { event, statement } = recordEvent(deps, t, "payment.created", { id: "c1", amount: "10.00" });
    await deps.db.batch([statement]);
    expect(await storedEvent(event.id)).toEqual({
      id: event.id,
      organization_id: t.organizationId,
      workspace_id: t.workspaceId,
      type: "payment.created",
      data: JSON.stringify({ id: "c1", amount: "10.00" }),
      created_at: at.toISOString(),
      fanned_out_at: null,
    });
  });

  it("recordEventIfChanged after an update that changed a row: the event is written, columns in place", async () => {
    const deps = testDeps({ now: () => at });
    const t = tenant();
    const eventId = newId();
    await deps.db
      .insert(events)
      .values({ id: eventId, ...t, type: "payment.created", data: {}, createdAt: at.toISOString(), fannedOutAt: null });
    const change = deps.db.update(events).set({ fannedOutAt: at.toISOString() }).where(eq(events.id, eventId));
    const { event, statement } = recordEventIfChanged(deps, t, "payment.received", { id: "p1", status: "RECEIVED" });
    const [changed] = await deps.db.batch([change, statement]);
    expect(changedRows(changed)).toBe(1);
    expect(await storedEvent(event.id)).toEqual({
      id: event.id,
      organization_id: t.organizationId,
      workspace_id: t.workspaceId,
      type: "payment.received",
      data: JSON.stringify({ id: "p1", status: "RECEIVED" }),
      created_at: at.toISOString(),
      fanned_out_at: null,
    });
  });

  it("recordEventIfChanged after an update that changed nothing: no event", async () => {
    const deps = testDeps({ now: () => at });
    const t = tenant();
    const noChange = deps.db.update(events).set({ fannedOutAt: at.toISOString() }).where(eq(events.id, newId()));
    const { event, statement } = recordEventIfChanged(deps, t, "payment.received", { id: "p1" });
    const [changed] = await deps.db.batch([noChange, statement]);
    expect(changedRows(changed)).toBe(0);
    expect(await storedEvent(event.id)).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM events WHERE workspace_id = ?").bind(t.workspaceId).first("n")).toBe(0);
  });
});

describe("insertIfChanged (src/db/guarded-insert.ts)", () => {
  it("names every column it writes, in any key order, and leaves the others to their defaults", async () => {
    const deps = testDeps();
    const t = tenant();
    const id = newId();
    const eventId = newId();
    await deps.db
      .insert(events)
      .values({ id: eventId, ...t, type: "payment.created", data: {}, createdAt: at.toISOString(), fannedOutAt: null });
    // Keys deliberately out of schema order, `origin` and `failureReason` omitted (schema default / NULL).
    const values = {
      updatedAt: "u",
      createdAt: "c",
      status: "pending" as const,
      valueCents: 1234,
      paymentId: "ch",
      description: "d",
      workspaceId: t.workspaceId,
      organizationId: t.organizationId,
      id,
    };
    const query = insertIfChanged(createDb(env.DB), refunds, values).toSQL();
    // Each selected value is aliased to the column the INSERT lists at the same position.
    const [, inserted = "", selected = ""] = /^insert into "refunds" \((.*)\) SELECT (.*) WHERE changes\(\) > 0$/.exec(query.sql) ?? [];
    expect(selected.split(", ").map((s) => s.replace(/^\? AS /, ""))).toEqual(inserted.split(", "));
    expect(query.params[inserted.split(", ").indexOf('"value_cents"')]).toBe(1234);
    await deps.db.batch([
      deps.db.update(events).set({ fannedOutAt: "x" }).where(eq(events.id, eventId)),
      insertIfChanged(deps.db, refunds, values),
    ]);
    const row = await deps.db.select().from(refunds).where(eq(refunds.id, id)).get();
    expect(row).toEqual({
      id,
      ...t,
      paymentId: "ch",
      valueCents: 1234,
      description: "d",
      status: "pending",
      origin: "ponte",
      failureReason: null,
      createdAt: "c",
      updatedAt: "u",
    });
  });

  it("refuses a key that is not a column", () => {
    expect(() => guardedSelect(refunds, { id: "x", nope: 1 } as never, sql`1`)).toThrow(/nope is not a column/);
  });
});
