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

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(zone, f);
  }
  return f;
}

/** YYYY-MM-DD of `instant` (an ISO timestamp or Date) in `zone`. */
export function localDay(instant: string | Date, zone: string): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  const parts = formatter(zone).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The local day of `instant` in every supported zone (what a rollup row's day is picked from). */
export function localDays(instant: string | Date): Record<TimeZone, string> {
  return Object.fromEntries(TIME_ZONES.map((z) => [z, localDay(instant, z)])) as Record<TimeZone, string>;
}

/** `YYYY-MM-DD` plus `n` days (calendar arithmetic, no time zone). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export const isDay = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);
