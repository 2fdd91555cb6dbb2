// The console's one filter bar: a GET form over the page's own path that keeps the current values, so a
// filtered list is a link. Selects offer "Any" first; checkboxes send `true`.
import type { ConsoleContext } from "../context";

export type FilterOption = string | { value: string; label: string };

export interface FilterField {
  name: string;
  label: string;
  options?: readonly FilterOption[];
  /** The select's empty choice (default "Any"); false: none (the field always has a value). */
  any?: string | false;
  placeholder?: string;
  type?: "text" | "date" | "checkbox";
  /** Shown when the query does not give the field (e.g. the range a report defaulted to). */
  value?: string | undefined;
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

const optionOf = (o: FilterOption) => (typeof o === "string" ? { value: o, label: o } : o);

export function FilterBar({
  c,
  path,
  fields,
  label,
  submit = "Filter",
}: {
  c: ConsoleContext;
  path: string;
  fields: FilterField[];
  label: string;
  submit?: string;
}) {
  return (
    <form method="get" action={path} class="card" aria-label={label}>
      <div class="grid">
        {fields.map((f) => {
          const value = c.req.query(f.name) || f.value || "";
          const id = `f-${f.name.replace(/[^a-z0-9]/gi, "-")}`;
          if (f.type === "checkbox")
            return (
              <label class="check">
                <input type="checkbox" name={f.name} value="true" checked={value === "true"} /> {f.label}
              </label>
            );
          return (
            <div>
              <label for={id}>{f.label}</label>
              {f.options ? (
                <select id={id} name={f.name}>
                  {f.any === false ? null : <option value="">{f.any ?? "Any"}</option>}
                  {f.options.map(optionOf).map((o) => (
                    <option value={o.value} selected={value === o.value}>
                      {o.label}
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
        <button type="submit" class="secondary">
          {submit}
        </button>
        <a href={path}>Clear filters</a>
      </div>
    </form>
  );
}
