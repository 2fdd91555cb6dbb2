// The one date rule of the API: every calendar day (`YYYY-MM-DD`) and every instant (ISO 8601 with an offset) a
// request carries — body field, query filter or form field — is a real date between DATE_FLOOR and DATE_CEILING.
// Outside them a date is a typo (0001-01-01, 20266-01-01) that would otherwise be stored and acted on (a recurring
// expense from year 1 made the minute sweeper write 24 rows per run); the 400 names the field and the bound.
import { z } from "@hono/zod-openapi";

/** The earliest day any date input may name (inclusive). */
export const DATE_FLOOR = "2000-01-01";
/** The latest day any date input may name (inclusive). */
export const DATE_CEILING = "2100-12-31";

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
export const FLOOR_MESSAGE = `must be on or after ${DATE_FLOOR}`;
export const CEILING_MESSAGE = `must be on or before ${DATE_CEILING}`;

/** A real calendar day (2026-02-30 is not). */
export const isCalendarDay = (s: string): boolean =>
  DAY_SHAPE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** Why a (calendar) day is out of bounds, or null. */
export function dayBoundsProblem(day: string): string | null {
  if (day < DATE_FLOOR) return FLOOR_MESSAGE;
  if (day > DATE_CEILING) return CEILING_MESSAGE;
  return null;
}

const FLOOR_MS = Date.parse(`${DATE_FLOOR}T00:00:00Z`);
const CEILING_END_MS = Date.parse(`${DATE_CEILING}T23:59:59.999Z`);

/** A calendar day `YYYY-MM-DD`, real, within the bounds. */
export const DateOnly = z
  .string()
  .regex(DAY_SHAPE, "must be a date YYYY-MM-DD")
  .refine((s) => !DAY_SHAPE.test(s) || isCalendarDay(s), "must be a real calendar date")
  .refine((s) => !DAY_SHAPE.test(s) || s >= DATE_FLOOR, FLOOR_MESSAGE)
  .refine((s) => !DAY_SHAPE.test(s) || s <= DATE_CEILING, CEILING_MESSAGE)
  .openapi({ example: "2026-12-20" });

/** An instant, ISO 8601 with `Z` or an offset, within the bounds (compared in UTC). */
export const Instant = z.iso
  .datetime({ offset: true })
  .refine((s) => Number.isNaN(Date.parse(s)) || Date.parse(s) >= FLOOR_MS, FLOOR_MESSAGE)
  .refine((s) => Number.isNaN(Date.parse(s)) || Date.parse(s) <= CEILING_END_MS, CEILING_MESSAGE);
