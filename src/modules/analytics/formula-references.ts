// What a formula's variables refer to, and which formulas refer to a name: the one place that reads a
// formula's variables as references (docs/finance-and-analytics.md, Formula grammar → IN_USE). A formula names a catalogue metric
// (`revenue`), a cost category by key (`expenses.<key>`, its children included) or another formula by
// key. Names are what the merchant writes, so a category or formula a formula uses cannot be renamed
// away or deleted while that formula uses it: 409 IN_USE naming the formulas (as Stripe refuses to
// delete a price in use), never a silent 0.
import { costCategories, formulas } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError } from "../../http/errors";
import type { Tenant } from "../../lib/tenant";
import { parseFormula } from "./formula-engine";
import { METRIC_KEYS, metricDefinition } from "./metric-catalogue";

/** The most formulas a workspace holds (the cap formulas-service enforces). */
export const MAX_FORMULAS_PER_WORKSPACE = 200;

export type VariableKind = "metric" | "expenses" | "formula";

export const kindOf = (name: string): VariableKind =>
  METRIC_KEYS.has(name) ? "metric" : name.startsWith("expenses.") ? "expenses" : "formula";

/** The category key an `expenses.<key>` variable names. */
export const categoryKeyOf = (name: string) => name.slice("expenses.".length);

export interface Reference {
  /** The variable as written. */
  variable: string;
  kind: VariableKind;
  /** The metric's key, the cost category's id or the formula's id; null when it names nothing (yet). */
  id: string | null;
  name: string | null;
}

export interface Named {
  categories: ReadonlyMap<string, { id: string; name: string }>;
  formulas: ReadonlyMap<string, { id: string; name: string }>;
}

/** What each variable (in order of first use) refers to. */
export function referencesOf(variables: readonly string[], named: Named): Reference[] {
  return variables.map((variable) => {
    const kind = kindOf(variable);
    const target =
      kind === "metric"
        ? { id: variable, name: metricDefinition(variable)?.name ?? variable }
        : kind === "expenses"
          ? named.categories.get(categoryKeyOf(variable))
          : named.formulas.get(variable);
    return { variable, kind, id: target?.id ?? null, name: target?.name ?? null };
  });
}

/** The formulas (key, id, name) whose expression uses any of `variables`, in key order. */
export async function formulasUsing(deps: Deps, tenant: Tenant, variables: readonly string[]) {
  if (variables.length === 0) return [];
  const wanted = new Set(variables);
  const rows = await deps.db
    .select({ id: formulas.id, key: formulas.key, name: formulas.name, expression: formulas.expression })
    .from(formulas)
    .where(inTenant(formulas, tenant))
    .limit(MAX_FORMULAS_PER_WORKSPACE);
  return rows
    .filter((row) => {
      const parsed = parseFormula(row.expression);
      return parsed.ok && parsed.formula.variables.some((v) => wanted.has(v.name));
    })
    .map(({ id, key, name }) => ({ id, key, name }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** 409 IN_USE when formulas use the cost category keyed `key`: `change` says what was refused. */
export async function refuseIfCategoryInUse(deps: Deps, tenant: Tenant, key: string, change: "rename" | "delete") {
  const users = await formulasUsing(deps, tenant, [`expenses.${key}`]);
  if (users.length === 0) return;
  const list = users.map((f) => f.key).join(", ");
  throw new ApiError(
    "IN_USE",
    change === "rename"
      ? `Formulas ${list} use expenses.${key}; change them before changing this category's key (its name can change freely).`
      : `Formulas ${list} use expenses.${key}; change or delete them before deleting this category.`,
    { usedBy: users.map((f) => f.key), formulas: users },
  );
}

/** The names categories and formulas answer to in this tenant, for `referencesOf`. */
export async function namedInTenant(deps: Deps, tenant: Tenant): Promise<Named> {
  const [cats, rows] = await deps.db.batch([
    deps.db
      .select({ id: costCategories.id, key: costCategories.key, name: costCategories.name })
      .from(costCategories)
      .where(inTenant(costCategories, tenant)),
    deps.db
      .select({ id: formulas.id, key: formulas.key, name: formulas.name })
      .from(formulas)
      .where(inTenant(formulas, tenant))
      .limit(MAX_FORMULAS_PER_WORKSPACE),
  ]);
  return {
    categories: new Map(cats.map((c) => [c.key, { id: c.id, name: c.name }])),
    formulas: new Map(rows.map((f) => [f.key, { id: f.id, name: f.name }])),
  };
}
