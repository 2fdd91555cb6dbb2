// The time zones analytics can bucket days in (an organization's `time_zone`), and the local day of an
// instant in each. A fixed list keeps the rollup write cheap: the day in every zone is computed in JS and
// the database picks the organization's (metric_daily rows are written without reading the organization).

export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

export const TIME_ZONES = [
  "America/Sao_Paulo",
  "America/Manaus",
  "America/Cuiaba",
  "America/Campo_Grande",
  "America/Porto_Velho",
  "America/Boa_Vista",
  "America/Rio_Branco",
  "America/Noronha",
  "America/Belem",
  "America/Fortaleza",
  "America/Recife",
  "America/Bahia",
  "America/Argentina/Buenos_Aires",
  "America/Santiago",
  "America/Bogota",
  "America/Mexico_City",
  "America/New_York",
  "America/Los_Angeles",
  "Europe/Lisbon",
  "Europe/London",
  "UTC",
] as const;
export type TimeZone = (typeof TIME_ZONES)[number];

export function isTimeZone(value: string): value is TimeZone {
  return (TIME_ZONES as readonly string[]).includes(value);
}

const DAY_MS = 86_400_000;
/** Per zone, the last local day seen and the UTC instants it spans [from, to): most instants asked about are near each other. */
const dayWindows = new Map<string, { from: number; to: number; day: string }>();

/**
 * YYYY-MM-DD of `instant` (an ISO timestamp or Date) in `zone`. Intl's formatting costs several
 * microseconds a call, and a charge's rollups ask for its day in every supported zone, so each zone
 * keeps the span of its last local day: when the zone's offset is the same at both ends of that day
 * (no clock change within it), every instant inside is that day. A day with a clock change is
 * computed call by call.
 */
export function localDay(instant: string | Date, zone: string): string {
  const ms = typeof instant === "string" ? Date.parse(instant) : instant.getTime();
  const known = dayWindows.get(zone);
  if (known && ms >= known.from && ms < known.to) return known.day;
  const { day, offset } = wallClock(ms, zone);
  const from = Date.parse(`${day}T00:00:00Z`) - offset;
  if (Number.isFinite(from) && wallClock(from, zone).offset === offset && wallClock(from + DAY_MS - 1, zone).offset === offset) {
    dayWindows.set(zone, { from, to: from + DAY_MS, day });
  }
  return day;
}

/** The last `addDays` answer: a charge's rollups ask for the day after its due date once per zone. */
let lastAddDays = { day: "", n: 0, result: "" };

/** `YYYY-MM-DD` plus `n` days (calendar arithmetic, no time zone). */
export function addDays(day: string, n: number): string {
  if (day === lastAddDays.day && n === lastAddDays.n && day !== "") return lastAddDays.result;
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  const result = d.toISOString().slice(0, 10);
  lastAddDays = { day, n, result };
  return result;
}

export const isDay = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

const LOCAL_DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far `zone`'s wall clock is ahead of UTC at `epochMs`, in ms (São Paulo today: −3 h). */
function zoneOffsetMs(epochMs: number, zone: string): number {
  return wallClock(epochMs, zone).offset;
}

/** The local date in `zone` at `epochMs`, and the zone's offset from UTC then (ms; Intl throws on an invalid instant or zone). */
function wallClock(epochMs: number, zone: string): { day: string; offset: number } {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    offsetFormatters.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const { year = "", month = "", day = "", hour, minute, second } = parts;
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  return { day: `${year.padStart(4, "0")}-${month}-${day}`, offset: wall - Math.floor(epochMs / 1000) * 1000 };
}

/**
 * A wall-clock `YYYY-MM-DD HH:mm:ss` in `zone` as an ISO UTC timestamp (`…T20:00:00.000Z`, what native
 * routes answer), with the zone's offset at that moment (São Paulo kept DST until 2019). A time a DST
 * change skipped is read with the offset before the change; an ambiguous one as its first occurrence.
 * Anything not shaped like a local date-time, or not a real calendar time, gives undefined.
 */
export function zonedDateTimeToUtc(local: string, zone: string): string | undefined {
  const m = LOCAL_DATE_TIME_RE.exec(local);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  // The offset a day earlier is the one before any change near this time: a wall time it reads validly
  // (also the first of an ambiguous pair) is that; else the later offset; a skipped time keeps the earlier.
  const before = zoneOffsetMs(asUtc - 86_400_000, zone);
  const early = asUtc - before;
  const after = zoneOffsetMs(early, zone);
  if (after === before) return new Date(early).toISOString();
  const late = asUtc - after;
  return new Date(zoneOffsetMs(late, zone) === after ? late : early).toISOString();
}
