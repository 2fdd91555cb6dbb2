// Shared pieces of the console's data pages: page-number paging, the filter form, dates, status badges.
import type { Child } from "hono/jsx";
import type { Permission } from "../../lib/permissions";
import type { ConsoleContext } from "../context";

export const PAGE_SIZE = 25;

/** `?page=N` (1-based) → the services' { limit, offset }. */
export function pageOf(c: ConsoleContext) {
  const page = Math.max(1, Math.min(10_000, Number.parseInt(c.req.query("page") ?? "1", 10) || 1));
  return { page, request: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } };
}

/** The query's non-empty values among `names`, trimmed. */
export function filtersOf<K extends string>(c: ConsoleContext, names: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const n of names) {
    const v = c.req.query(n)?.trim();
    if (v) out[n] = v;
  }
  return out;
}

export const can = (c: ConsoleContext, permission: Permission) => c.get("console").principal.permissions.has(permission);

export const when = (iso: string | null | undefined) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

const BADGE: Record<string, string> = {
  RECEIVED: "ok",
  CONFIRMED: "ok",
  RECEIVED_IN_CASH: "ok",
  ACTIVE: "ok",
  active: "ok",
  OVERDUE: "warn",
  PENDING: "",
  REFUNDED: "warn",
  CANCELED: "bad",
  INACTIVE: "bad",
  EXPIRED: "bad",
  archived: "bad",
};
export const Badge = ({ value }: { value: string }) => <span class={`badge ${BADGE[value] ?? ""}`}>{value}</span>;

/** "N records · page P of Q" with previous/next links that keep the filters. */
export function Pager({ c, path, page, total }: { c: ConsoleContext; path: string; page: number; total: number }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const link = (p: number) => {
    const q = new URL(c.req.url).searchParams;
    q.set("page", String(p));
    return `${path}?${q.toString()}`;
  };
  return (
    <nav class="actions" aria-label="Pages">
      <span class="muted">
        {total} {total === 1 ? "record" : "records"} · page {Math.min(page, pages)} of {pages}
      </span>
      {page > 1 ? (
        <a href={link(page - 1)} rel="prev">
          ← Previous
        </a>
      ) : null}
      {page < pages ? (
        <a href={link(page + 1)} rel="next">
          Next →
        </a>
      ) : null}
    </nav>
  );
}

export interface FilterField {
  name: string;
  label: string;
  options?: readonly string[];
  placeholder?: string;
  type?: "text" | "date";
}

/** A GET form of filters that keeps their current values. */
export function Filters({ c, path, fields }: { c: ConsoleContext; path: string; fields: FilterField[] }) {
  return (
    <form method="get" action={path} class="card">
      <div class="grid">
        {fields.map((f) => {
          const value = c.req.query(f.name) ?? "";
          const id = `f-${f.name.replace(/[^a-z0-9]/gi, "-")}`;
          return (
            <div>
              <label for={id}>{f.label}</label>
              {f.options ? (
                <select id={id} name={f.name}>
                  <option value="">Any</option>
                  {f.options.map((o) => (
                    <option value={o} selected={value === o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input id={id} name={f.name} type={f.type ?? "text"} value={value} placeholder={f.placeholder ?? ""} />
              )}
            </div>
          );
        })}
      </div>
      <div class="actions">
        <button type="submit">Filter</button>
        <a href={path}>Clear filters</a>
      </div>
    </form>
  );
}

export const Empty = ({ children }: { children?: Child }) => <p class="muted">{children}</p>;
