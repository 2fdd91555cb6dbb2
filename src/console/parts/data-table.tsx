// The console's one data table: columns (a label and what a cell shows, optionally a link per row), an empty
// state in words, per-row attributes for tests and styling, and page-number paging that keeps the filters.
// A list page is then a column list and a service call.
import type { Child } from "hono/jsx";
import type { ConsoleContext } from "../context";

export const PAGE_SIZE = 25;

export interface Column<T> {
  label: string;
  /** What the cell shows. */
  cell: (row: T) => Child;
  /** Makes the cell a link to this row's page. */
  href?: (row: T) => string;
  /** Shown only to screen readers (e.g. an actions column). */
  hiddenLabel?: boolean;
  mono?: boolean;
  /** The cell names its row (a `<th scope="row">`). */
  rowHeader?: boolean;
}

/** `?page=N` (1-based) → the services' { limit, offset }. */
export function pageOf(c: ConsoleContext, size = PAGE_SIZE) {
  const page = Math.max(1, Math.min(10_000, Number.parseInt(c.req.query("page") ?? "1", 10) || 1));
  return { page, request: { limit: size, offset: (page - 1) * size } };
}

export interface Paging {
  c: ConsoleContext;
  path: string;
  page: number;
  total: number;
  size?: number;
}

/** "N records · page P of Q" with previous/next links that keep the filters. */
export function Pager({ c, path, page, total, size = PAGE_SIZE }: Paging) {
  const pages = Math.max(1, Math.ceil(total / size));
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

export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: T[];
  /** Said instead of the table when there are no rows. */
  empty: Child;
  /** Extra attributes of the table (e.g. data-* hooks) and of each row. */
  attrs?: Record<string, string>;
  rowAttrs?: (row: T) => Record<string, string | undefined>;
  caption?: string;
  /** Rows of a `<tfoot>` (e.g. the totals), under the columns. */
  footer?: Child;
  paging?: Paging;
}) {
  const { columns, rows } = props;
  return (
    <>
      {rows.length === 0 ? (
        <p class="muted" data-empty>
          {props.empty}
        </p>
      ) : (
        <div class="table-wrap">
          <table {...(props.attrs ?? {})}>
            {props.caption ? <caption class="muted">{props.caption}</caption> : null}
            <thead>
              <tr>
                {columns.map((col) => (
                  <th scope="col">{col.hiddenLabel ? <span class="sr-only">{col.label}</span> : col.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr {...(props.rowAttrs?.(row) ?? {})}>
                  {columns.map((col) => {
                    const content = col.href ? <a href={col.href(row)}>{col.cell(row)}</a> : col.cell(row);
                    const cls = col.mono ? "mono" : undefined;
                    return col.rowHeader ? (
                      <th scope="row" class={cls}>
                        {content}
                      </th>
                    ) : (
                      <td class={cls}>{content}</td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
            {props.footer ? <tfoot>{props.footer}</tfoot> : null}
          </table>
        </div>
      )}
      {props.paging ? <Pager {...props.paging} /> : null}
    </>
  );
}
