// Recurring expenses (PLATFORM.md): a MONTHLY or YEARLY expense entered by hand is the first occurrence;
// the cron sweeper materialises each later one (source RECURRENCE) once its day has come in the
// organization's time zone. Occurrence n falls on the start day n months (or years) later, clamped to
// the month's last day (31 Jan → 28/29 Feb → 31 Mar). Each insert carries `sourceRef`
// `recurrence:<parent>:<date>` under the unique index expenses_source_ref_uq and does nothing on a
// clash, and its rollup applies only if the insert wrote a row: an occurrence is written and counted
// exactly once however many sweeps overlap.
import { and, getTableColumns, gt, inArray, ne, sql } from "drizzle-orm";
import { changedRows } from "../../db/guarded-insert";
import { expenses, organizations } from "../../db/schema";
import type { Deps } from "../../deps";
import { expenseDeltas, rollupIfChanged } from "../../events/metric-rollups";
import { newId } from "../../lib/ids";
import { DEFAULT_TIME_ZONE, localDay } from "../../lib/time-zones";
import type { ExpenseRow } from "./rows";
import { factsOf } from "./service";

/**
 * Parents read per page, pages per sweep, occurrences caught up per parent per sweep, and occurrences written
 * per sweep in all: the next sweep (a minute later) goes on where this one stopped, since a parent's latest
 * occurrence is what it resumes from. A start is at most 36 months back (service.ts), so a parent catches up in two sweeps.
 */
const PAGE = 100;
const MAX_PAGES = 10;
const MAX_OCCURRENCES = 24;
export const MAX_OCCURRENCES_PER_RUN = 500;
/** UTC+14 (Pacific/Kiritimati): no local day anywhere is ahead of the UTC day this far ahead. */
const LATEST_UTC_OFFSET_MS = 14 * 3_600_000;

/** `start` plus `n` periods, the day clamped to the target month's length. */
export function occurrenceDay(start: string, recurrence: "MONTHLY" | "YEARLY", n: number): string {
  const [y = 0, m = 1, d = 1] = start.split("-").map(Number);
  const total = y * 12 + (m - 1) + (recurrence === "MONTHLY" ? n : 12 * n);
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The occurrences of `parent` due by `today`, after `last` (the latest already written), at most `max`. */
export function dueOccurrences(parent: ExpenseRow, last: string, today: string, max = MAX_OCCURRENCES): { n: number; day: string }[] {
  if (parent.recurrence === "NONE") return [];
  const endsOn = parent.recurrenceEndsOn && parent.recurrenceEndsOn < today ? parent.recurrenceEndsOn : today;
  const out: { n: number; day: string }[] = [];
  for (let n = 1; out.length < max; n++) {
    const day = occurrenceDay(parent.incurredOn, parent.recurrence, n);
    if (day > endsOn) break;
    if (day > last) out.push({ n, day });
  }
  return out;
}

export function occurrenceRow(parent: ExpenseRow, n: number, day: string, now: string): ExpenseRow {
  const recurrence = parent.recurrence === "YEARLY" ? "YEARLY" : "MONTHLY";
  return {
    ...parent,
    id: newId(),
    incurredOn: day,
    dueDate: parent.dueDate ? occurrenceDay(parent.dueDate, recurrence, n) : null,
    paidAt: null,
    status: "PENDING",
    recurrence: "NONE",
    recurrenceEndsOn: null,
    recurrenceParentId: parent.id,
    source: "RECURRENCE",
    sourceRef: `recurrence:${parent.id}:${day}`,
    createdAt: now,
    updatedAt: now,
  };
}

/** One sweep: every recurring expense with an occurrence due, caught up. Returns occurrences written. */
export async function materialiseRecurringExpenses(deps: Deps): Promise<number> {
  // At most MAX_OCCURRENCES_PER_RUN rows (`written` counts the rows inserted; a clash with an overlapping sweep writes none).
  const now = deps.now();
  const nowIso = now.toISOString();
  // No zone's "today" is later than the UTC day 14 hours ahead (the largest offset from UTC there is): a parent
  // none of whose next occurrences can be due by then is skipped in SQL. A bound, not each zone's day (which
  // cost an Intl formatter per supported zone on every sweep, ~6 % of the isolate in the webhooks burst); the
  // parents it lets through are checked against their organization's own day below.
  const latestToday = new Date(now.getTime() + LATEST_UTC_OFFSET_MS).toISOString().slice(0, 10);
  const lastWritten = sql<string | null>`(SELECT max(o.incurred_on) FROM expenses o WHERE o.recurrence_parent_id = ${expenses.id})`;
  let cursor = "";
  let written = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const parents = await deps.db
      .select({ ...getTableColumns(expenses), last: lastWritten, timeZone: organizations.timeZone })
      .from(expenses)
      .leftJoin(organizations, sql`${organizations.id} = ${expenses.organizationId}`)
      .where(
        and(
          inArray(expenses.recurrence, ["MONTHLY", "YEARLY"]),
          ne(expenses.status, "CANCELED"),
          gt(expenses.id, cursor),
          // Occurrences are at least 28 days (monthly) or 365 days (yearly) apart.
          sql`date(coalesce(${lastWritten}, ${expenses.incurredOn}), CASE ${expenses.recurrence} WHEN 'MONTHLY' THEN '+28 days' ELSE '+365 days' END) <= ${latestToday}`,
        ),
      )
      .orderBy(expenses.id)
      .limit(PAGE)
      .all();
    for (const { last, timeZone, ...parent } of parents) {
      const today = localDay(now, timeZone ?? DEFAULT_TIME_ZONE);
      const budget = MAX_OCCURRENCES_PER_RUN - written;
      if (budget <= 0) return written;
      const due = dueOccurrences(parent, last ?? parent.incurredOn, today, Math.min(MAX_OCCURRENCES, budget));
      if (due.length === 0) continue;
      const rows = due.map(({ n, day }) => occurrenceRow(parent, n, day, nowIso));
      const items: Parameters<typeof deps.db.batch>[0][number][] = [];
      const inserts: number[] = [];
      for (const row of rows) {
        inserts.push(items.length);
        items.push(
          deps.db
            .insert(expenses)
            .values(row)
            .onConflictDoNothing({ target: [expenses.workspaceId, expenses.sourceRef] }),
          ...rollupIfChanged(deps.db, parent, expenseDeltas(null, factsOf(row))),
        );
      }
      const results = await deps.db.batch(items as unknown as Parameters<typeof deps.db.batch>[0]);
      written += inserts.filter((i) => changedRows(results[i]) > 0).length;
    }
    if (parents.length < PAGE) break;
    cursor = parents.at(-1)?.id ?? cursor;
  }
  return written;
}
