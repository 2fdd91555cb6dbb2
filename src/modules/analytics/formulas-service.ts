// Formulas (PLATFORM.md): merchant-defined metrics over the catalogue, `expenses.<categoryKey>` and other
// formulas. Saved only when the expression parses, every variable exists and no cycle forms (checked again by
// the write itself, ./formula-graph.ts); their series evaluate the AST per period with bounded decimals
// (./formula-limits.ts) over the same daily rollups as the metrics.
import type { z } from "@hono/zod-openapi";
import { and, eq, ne, sql } from "drizzle-orm";
import { changedRows, insertWhere } from "../../db/guarded-insert";
import { type Principal, requirePermission, tenantOf } from "../../access/principal";
import { newestFirstPage } from "../../db/paging";
import { costCategories, formulas } from "../../db/schema";
import { inTenant } from "../../db/tenant-scope";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import {
  evaluate,
  type FormulaError,
  type FormulaNode,
  type ParsedFormula,
  parseFormula,
  unknownVariable,
  type Value,
} from "./formula-engine";
import { closesNoCycle, findCycle, reaches } from "./formula-graph";
import type { CreateFormulaBody, UpdateFormulaBody } from "./formula-schemas";
import { FORMULA_LIMITS, FormulaLimitError } from "./formula-limits";
import { MAX_FORMULAS_PER_WORKSPACE, type Named, kindOf, namedInTenant, referencesOf } from "./formula-references";
import { categoryExpenses, type DailyData, METRIC_KEYS, metricDefinition, metricValue, type Period, type Unit } from "./metric-catalogue";
import { loadDaily, periodsOf, resolveRange, type SeriesQuery, type SeriesResult, seriesOf } from "./metrics-service";

export type FormulaRow = typeof formulas.$inferSelect;
export { MAX_FORMULAS_PER_WORKSPACE };

/** A formula as answered: its variables, and what each refers to (`named`: this tenant's categories and formulas). */
export function presentFormula(row: FormulaRow, named: Named) {
  const parsed = parseFormula(row.expression);
  const variables = parsed.ok ? parsed.formula.variables.map((v) => v.name) : [];
  return {
    id: row.id,
    object: "formula" as const,
    key: row.key,
    name: row.name,
    expression: row.expression,
    unit: row.unit,
    description: row.description,
    variables,
    references: referencesOf(variables, named),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** 400 naming the expression's position and the reason. */
function expressionError(error: FormulaError): ApiError {
  return new ApiError("VALIDATION_FAILED", `Invalid expression at position ${error.position}: ${error.message}.`, {
    position: error.position,
    fields: [{ path: "body.expression", message: `at position ${error.position}: ${error.message}`, code: "invalid_expression" }],
  });
}

interface Vocabulary {
  categories: Map<string, string[]>; // key → its id and its children's ids
  categoryNames: Map<string, { id: string; name: string }>; // key → its id and name
  formulas: Map<string, FormulaRow>;
}

/** The vocabulary as references name things (the formula being saved included). */
const namedIn = (vocab: Vocabulary, ...extra: FormulaRow[]): Named => ({
  categories: vocab.categoryNames,
  formulas: new Map([...vocab.formulas.values(), ...extra].map((f) => [f.key, { id: f.id, name: f.name }])),
});

async function vocabulary(deps: Deps, tenant: Tenant): Promise<Vocabulary> {
  const [cats, rows] = await deps.db.batch([
    deps.db
      .select({ id: costCategories.id, key: costCategories.key, name: costCategories.name, parentId: costCategories.parentId })
      .from(costCategories)
      .where(inTenant(costCategories, tenant)),
    deps.db.select().from(formulas).where(inTenant(formulas, tenant)).limit(MAX_FORMULAS_PER_WORKSPACE),
  ]);
  const categories = new Map<string, string[]>();
  for (const c of cats) categories.set(c.key, [c.id, ...cats.filter((x) => x.parentId === c.id).map((x) => x.id)]);
  const categoryNames = new Map(cats.map((c) => [c.key, { id: c.id, name: c.name }]));
  return { categories, categoryNames, formulas: new Map(rows.map((r) => [r.key, r])) };
}

/** Parses and resolves `expression` for a formula keyed `selfKey` (null: not saved); throws 400 on any fault. */
function check(expression: string, vocab: Vocabulary, selfKey: string | null): ParsedFormula {
  const parsed = parseFormula(expression);
  if (!parsed.ok) throw expressionError(parsed.error);
  const unknown = unknownVariable(parsed.formula, (name) => {
    if (METRIC_KEYS.has(name)) return true;
    if (name.startsWith("expenses.")) return vocab.categories.has(name.slice("expenses.".length));
    return vocab.formulas.has(name) || name === selfKey;
  });
  if (unknown) throw expressionError(unknown);
  if (selfKey) {
    const refs = formulaRefs(parsed.formula);
    const cycle = findCycle(selfKey, (k) => (k === selfKey ? refs : (vocab.formulas.get(k)?.formulaRefs ?? [])));
    if (cycle) {
      const first = parsed.formula.variables.find((v) => v.name === cycle[1]) ?? { position: 0 };
      throw expressionError({ position: first.position, message: `formulas would depend on each other in a cycle: ${cycle.join(" → ")}` });
    }
  }
  const terms = termsWithDependencies(parsed.formula, vocab, selfKey);
  if (terms > FORMULA_LIMITS.maxTermsWithDependencies)
    throw expressionError({
      position: 0,
      message: `with the formulas it uses it has ${terms} terms; at most ${FORMULA_LIMITS.maxTermsWithDependencies} are allowed`,
    });
  return parsed.formula;
}

/** The expression's terms plus those of every formula it reaches (each once): the work of evaluating one point. */
function termsWithDependencies(formula: ParsedFormula, vocab: Vocabulary, selfKey: string | null): number {
  let terms = formula.terms;
  const seen = new Set<string>(selfKey ? [selfKey] : []);
  const queue = formulaRefs(formula);
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    const row = seen.has(key) ? undefined : vocab.formulas.get(key);
    seen.add(key);
    const parsed = row ? parseFormula(row.expression) : null;
    if (!parsed?.ok) continue;
    terms += parsed.formula.terms;
    queue.push(...formulaRefs(parsed.formula));
  }
  return terms;
}

const formulaRefs = (f: ParsedFormula) => f.variables.map((v) => v.name).filter((n) => kindOf(n) === "formula");

export async function validateFormula(deps: Deps, principal: Principal, expression: string) {
  requirePermission(principal, "analytics.read");
  const vocab = await vocabulary(deps, tenantOf(principal));
  const formula = check(expression, vocab, null);
  return {
    valid: true as const,
    variables: formula.variables.map((v) => ({ name: v.name, kind: kindOf(v.name), position: v.position })),
    // What each variable names, as a saved formula answers it: an editor shows it before saving.
    references: referencesOf(
      formula.variables.map((v) => v.name),
      namedIn(vocab),
    ),
  };
}

export async function findFormulaRow(deps: Deps, tenant: Tenant, id: string): Promise<FormulaRow> {
  const row = await deps.db
    .select()
    .from(formulas)
    .where(and(eq(formulas.id, id), inTenant(formulas, tenant)))
    .get();
  if (!row) throw notFound("formula", id);
  return row;
}

function keyTaken(key: string) {
  return new ApiError("CONFLICT", `A formula with key '${key}' already exists in this workspace.`, { key });
}

export async function createFormula(deps: Deps, principal: Principal, input: z.infer<typeof CreateFormulaBody>) {
  requirePermission(principal, "analytics.manage");
  const tenant = tenantOf(principal);
  const vocab = await vocabulary(deps, tenant);
  if (vocab.formulas.has(input.key)) throw keyTaken(input.key);
  if (vocab.formulas.size >= MAX_FORMULAS_PER_WORKSPACE) throw capReached();
  const parsed = check(input.expression, vocab, input.key);
  const now = deps.now().toISOString();
  const row: FormulaRow = {
    id: newId(),
    ...tenant,
    key: input.key,
    name: input.name,
    expression: input.expression,
    unit: input.unit,
    description: input.description ?? null,
    formulaRefs: formulaRefs(parsed),
    createdAt: now,
    updatedAt: now,
  };
  // The cap, the key and the cycle check are part of the insert: concurrent creates cannot pass 200 or close a cycle.
  const underCap = sql`(SELECT count(*) FROM ${formulas} WHERE ${inTenant(formulas, tenant)}) < ${MAX_FORMULAS_PER_WORKSPACE}`;
  const guard = and(underCap, closesNoCycle(tenant, row, row.formulaRefs)) ?? underCap;
  const inserted = await insertWhere(deps.db, formulas, row, guard).onConflictDoNothing();
  if (changedRows(inserted) === 0) {
    const now = await vocabulary(deps, tenant);
    if (now.formulas.has(input.key)) throw keyTaken(input.key);
    if (now.formulas.size >= MAX_FORMULAS_PER_WORKSPACE) throw capReached();
    check(input.expression, now, input.key); // names the cycle a concurrent save closed
    throw changedMeanwhile(row.id);
  }
  return presentFormula(row, namedIn(vocab, row));
}

const capReached = () =>
  new ApiError("CONFLICT", `A workspace holds at most ${MAX_FORMULAS_PER_WORKSPACE} formulas.`, { limit: MAX_FORMULAS_PER_WORKSPACE });
const changedMeanwhile = (id: string) => new ApiError("CONFLICT", "The formulas changed meanwhile; read them and try again.", { id });

export async function listFormulas(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const [{ rows, totalCount }, named] = await Promise.all([
    newestFirstPage(deps.db, formulas, inTenant(formulas, tenant), page),
    namedInTenant(deps, tenant),
  ]);
  return { rows: rows.map((row) => presentFormula(row, named)), totalCount };
}

export async function getFormula(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const [row, named] = await Promise.all([findFormulaRow(deps, tenant, id), namedInTenant(deps, tenant)]);
  return presentFormula(row, named);
}

/** The formulas that use `key` (other than `selfId`). */
function dependents(vocab: Vocabulary, key: string, selfId: string): string[] {
  return [...vocab.formulas.values()].filter((f) => f.id !== selfId && f.formulaRefs.includes(key)).map((f) => f.key);
}

export async function updateFormula(deps: Deps, principal: Principal, id: string, input: z.infer<typeof UpdateFormulaBody>) {
  requirePermission(principal, "analytics.manage");
  const tenant = tenantOf(principal);
  const row = await findFormulaRow(deps, tenant, id);
  const vocab = await vocabulary(deps, tenant);
  vocab.formulas.delete(row.key);
  const key = input.key ?? row.key;
  if (key !== row.key) {
    if (vocab.formulas.has(key)) throw keyTaken(key);
    const users = dependents(vocab, row.key, row.id);
    if (users.length > 0)
      throw new ApiError("IN_USE", `Formulas ${users.join(", ")} use '${row.key}'; change them before renaming it.`, { usedBy: users });
  }
  const expression = input.expression ?? row.expression;
  const parsed = check(expression, vocab, key);
  const next: FormulaRow = {
    ...row,
    key,
    name: input.name ?? row.name,
    expression,
    unit: input.unit ?? row.unit,
    description: input.description === undefined ? row.description : input.description,
    formulaRefs: formulaRefs(parsed),
    updatedAt: deps.now().toISOString(),
  };
  const { id: _id, organizationId: _o, workspaceId: _w, createdAt: _c, ...changes } = next;
  const updated = await deps.db
    .update(formulas)
    .set(changes)
    .where(and(eq(formulas.id, row.id), eq(formulas.updatedAt, row.updatedAt), closesNoCycle(tenant, next, next.formulaRefs)))
    .returning({ id: formulas.id })
    .catch((err: unknown) => {
      if (String(err).includes("UNIQUE")) throw keyTaken(key);
      throw err;
    });
  if (updated.length === 0) {
    const current = await findFormulaRow(deps, tenant, id);
    if (current.updatedAt === row.updatedAt) {
      const now = await vocabulary(deps, tenant);
      now.formulas.delete(row.key);
      check(expression, now, key); // names the cycle a concurrent save closed
    }
    throw changedMeanwhile(id);
  }
  return presentFormula(next, namedIn(vocab, next));
}

export async function deleteFormula(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "analytics.manage");
  const tenant = tenantOf(principal);
  const row = await findFormulaRow(deps, tenant, id);
  const users = await deps.db
    .select({ key: formulas.key, refs: formulas.formulaRefs })
    .from(formulas)
    .where(and(inTenant(formulas, tenant), ne(formulas.id, row.id)));
  // A formula caught in a cycle with this one (only a write that bypassed the checks can make one) does not block it.
  const refsOf = new Map(users.map((u) => [u.key, u.refs]));
  refsOf.set(row.key, row.formulaRefs);
  const dependsOn = (key: string) => refsOf.get(key) ?? [];
  const usedBy = users.filter((u) => u.refs.includes(row.key) && !reaches(row.key, u.key, dependsOn)).map((u) => u.key);
  if (usedBy.length > 0)
    throw new ApiError("IN_USE", `Formulas ${usedBy.join(", ")} use '${row.key}'; delete or change them first.`, { usedBy });
  await deps.db.delete(formulas).where(and(eq(formulas.id, row.id), inTenant(formulas, tenant)));
  return { id: row.id, object: "formula" as const, deleted: true as const };
}

/**
 * What a formula needs: the stored metrics its variables read (through nested formulas), whether a total makes
 * sense, and its terms with those of the formulas it uses. 409 when the formulas it reaches form a cycle (only a
 * write that bypassed the checks can store one), naming them.
 */
function requirements(root: FormulaRow, vocab: Vocabulary) {
  const stored = new Set<string>();
  let hasTotal = true;
  let terms = 0;
  const asts = new Map<string, FormulaNode>();
  const path: string[] = [];
  const visit = (f: FormulaRow) => {
    const onPath = path.indexOf(f.key);
    if (onPath >= 0) {
      const cycle = [...path.slice(onPath), f.key];
      throw new ApiError("INVALID_STATE", `Formulas ${cycle.join(" → ")} depend on each other in a cycle; change or delete one of them.`, {
        cycle,
      });
    }
    if (asts.has(f.key)) return;
    const parsed = parseFormula(f.expression);
    if (!parsed.ok) throw expressionError(parsed.error); // stored formulas always parse; a grammar change would land here
    asts.set(f.key, parsed.formula.ast);
    terms += parsed.formula.terms;
    path.push(f.key);
    for (const { name } of parsed.formula.variables) {
      const kind = kindOf(name);
      if (kind === "metric") {
        const def = metricDefinition(name);
        for (const m of def?.reads ?? []) stored.add(m);
        if (!def?.hasTotal) hasTotal = false;
      } else if (kind === "expenses") {
        for (const id of vocab.categories.get(name.slice("expenses.".length)) ?? []) stored.add(`expenses.category.${id}`);
      } else {
        const nested = vocab.formulas.get(name);
        if (nested) visit(nested);
      }
    }
    path.pop();
  };
  visit(root);
  return { stored: [...stored], hasTotal, asts, terms };
}

function limitExceeded(row: FormulaRow, message: string, limit: number | string): ApiError {
  return new ApiError("LIMIT_EXCEEDED", `Formula '${row.key}' cannot be evaluated: ${message}.`, { key: row.key, limit });
}

function evaluator(vocab: Vocabulary, asts: Map<string, FormulaNode>, data: DailyData) {
  return (key: string, period: Period): Value => {
    const memo = new Map<string, Value>();
    const resolve = (name: string): Value => {
      if (memo.has(name)) return memo.get(name) ?? null;
      let v: Value = null;
      const kind = kindOf(name);
      if (kind === "metric") v = metricValue(name, data, period);
      else if (kind === "expenses") v = categoryExpenses(data, vocab.categories.get(name.slice("expenses.".length)) ?? [], period);
      else {
        const ast = asts.get(name);
        v = ast ? evaluate(ast, resolve) : null;
      }
      memo.set(name, v);
      return v;
    };
    const ast = asts.get(key);
    return ast ? evaluate(ast, resolve) : null;
  };
}

async function seriesForRow(deps: Deps, tenant: Tenant, row: FormulaRow, query: SeriesQuery, vocab?: Vocabulary): Promise<SeriesResult> {
  const words = vocab ?? (await vocabulary(deps, tenant));
  const { stored, hasTotal, asts, terms } = requirements(row, words);
  if (terms > FORMULA_LIMITS.maxTermsWithDependencies)
    throw limitExceeded(
      row,
      `with the formulas it uses it has ${terms} terms (at most ${FORMULA_LIMITS.maxTermsWithDependencies})`,
      FORMULA_LIMITS.maxTermsWithDependencies,
    );
  const range = await resolveRange(deps, tenant, query);
  const work = terms * (periodsOf(range.from, range.to, range.interval).length + (hasTotal ? 1 : 0));
  if (work > FORMULA_LIMITS.maxTermsPerSeries)
    throw limitExceeded(
      row,
      `this series would evaluate ${work} terms, at most ${FORMULA_LIMITS.maxTermsPerSeries} per request; use a shorter range or a longer interval`,
      FORMULA_LIMITS.maxTermsPerSeries,
    );
  const data = await loadDaily(deps, tenant, stored, range.from, range.to);
  const formulaValue = evaluator(words, asts, data);
  const unit = row.unit as Unit;
  try {
    const { points, total } = seriesOf(range, unit, (p) => formulaValue(row.key, p), hasTotal);
    return { key: row.key, name: row.name, unit, ...range, points, total };
  } catch (err) {
    if (err instanceof FormulaLimitError) throw limitExceeded(row, err.message, FORMULA_LIMITS.maxMagnitude);
    throw err;
  }
}

export async function formulaSeries(deps: Deps, principal: Principal, id: string, query: SeriesQuery) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  return seriesForRow(deps, tenant, await findFormulaRow(deps, tenant, id), query);
}

/** GET /metrics/{key} for a key that is not in the catalogue: the workspace's formula of that key, if any. */
export async function formulaSeriesByKey(deps: Deps, principal: Principal, key: string, query: SeriesQuery) {
  requirePermission(principal, "analytics.read");
  const tenant = tenantOf(principal);
  const vocab = await vocabulary(deps, tenant);
  const row = vocab.formulas.get(key);
  if (!row) throw notFound("metric or formula", key);
  return seriesForRow(deps, tenant, row, query, vocab);
}
