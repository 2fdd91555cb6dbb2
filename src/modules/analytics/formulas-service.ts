// Formulas (PLATFORM.md): merchant-defined metrics over the catalogue, `expenses.<categoryKey>` and other
// formulas. Saved only when the expression parses, every variable exists and no cycle forms; their series
// evaluate the AST per period with exact decimals over the same daily rollups as the metrics.
import { z } from "@hono/zod-openapi";
import { and, eq, ne } from "drizzle-orm";
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
  findCycle,
  type FormulaError,
  type FormulaNode,
  MAX_EXPRESSION_LENGTH,
  type ParsedFormula,
  parseFormula,
  unknownVariable,
  type Value,
} from "./formula-engine";
import { categoryExpenses, type DailyData, METRIC_KEYS, metricDefinition, metricValue, type Period, type Unit } from "./metric-catalogue";
import { loadDaily, resolveRange, type SeriesQuery, type SeriesResult, seriesOf } from "./metrics-service";

export type FormulaRow = typeof formulas.$inferSelect;
export const MAX_FORMULAS_PER_WORKSPACE = 200;

const UnitEnum = z.enum(["BRL", "COUNT", "PERCENT"]);
const Key = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,62}$/, "lowercase letters, digits and _, starting with a letter (at most 63)")
  .refine((k) => !METRIC_KEYS.has(k) && k !== "expenses", "is a metric key; formulas need their own key");
const Expression = z.string().trim().min(1).max(MAX_EXPRESSION_LENGTH);

export const CreateFormulaBody = z
  .object({
    key: Key.openapi({ description: "Slug, unique in the workspace; other formulas use it as a variable. Not a metric key." }),
    name: z.string().trim().min(1).max(120),
    expression: Expression.openapi({ example: "(revenue - payment_fees - expenses) / revenue * 100" }),
    unit: UnitEnum,
    description: z.string().max(500).nullable().optional(),
  })
  .openapi("CreateFormula");
export const UpdateFormulaBody = z
  .object({
    key: Key.optional(),
    name: z.string().trim().min(1).max(120).optional(),
    expression: Expression.optional(),
    unit: UnitEnum.optional(),
    description: z.string().max(500).nullable().optional(),
  })
  .openapi("UpdateFormula");
export const ValidateFormulaBody = z.object({ expression: z.string().max(MAX_EXPRESSION_LENGTH) }).openapi("ValidateFormula");

export const Formula = z
  .object({
    id: z.uuid(),
    object: z.literal("formula"),
    key: z.string(),
    name: z.string(),
    expression: z.string(),
    unit: UnitEnum,
    description: z.string().nullable(),
    variables: z.array(z.string()).openapi({ description: "The variables the expression uses, in order of first use." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Formula");
export const FormulaValidation = z
  .object({
    valid: z.literal(true),
    variables: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["metric", "expenses", "formula"]),
        position: z.number().int().openapi({ description: "0-based position of its first use." }),
      }),
    ),
  })
  .openapi("FormulaValidation");

export function presentFormula(row: FormulaRow) {
  const parsed = parseFormula(row.expression);
  return {
    id: row.id,
    object: "formula" as const,
    key: row.key,
    name: row.name,
    expression: row.expression,
    unit: row.unit,
    description: row.description,
    variables: parsed.ok ? parsed.formula.variables.map((v) => v.name) : [],
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
  formulas: Map<string, FormulaRow>;
}

async function vocabulary(deps: Deps, tenant: Tenant): Promise<Vocabulary> {
  const [cats, rows] = await deps.db.batch([
    deps.db
      .select({ id: costCategories.id, key: costCategories.key, parentId: costCategories.parentId })
      .from(costCategories)
      .where(inTenant(costCategories, tenant)),
    deps.db.select().from(formulas).where(inTenant(formulas, tenant)).limit(MAX_FORMULAS_PER_WORKSPACE),
  ]);
  const categories = new Map<string, string[]>();
  for (const c of cats) categories.set(c.key, [c.id, ...cats.filter((x) => x.parentId === c.id).map((x) => x.id)]);
  return { categories, formulas: new Map(rows.map((r) => [r.key, r])) };
}

const kindOf = (name: string): "metric" | "expenses" | "formula" =>
  METRIC_KEYS.has(name) ? "metric" : name.startsWith("expenses.") ? "expenses" : "formula";

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
  return parsed.formula;
}

const formulaRefs = (f: ParsedFormula) => f.variables.map((v) => v.name).filter((n) => kindOf(n) === "formula");

export async function validateFormula(deps: Deps, principal: Principal, expression: string) {
  requirePermission(principal, "analytics.read");
  const formula = check(expression, await vocabulary(deps, tenantOf(principal)), null);
  return { valid: true as const, variables: formula.variables.map((v) => ({ name: v.name, kind: kindOf(v.name), position: v.position })) };
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
  if (vocab.formulas.size >= MAX_FORMULAS_PER_WORKSPACE)
    throw new ApiError("CONFLICT", `A workspace holds at most ${MAX_FORMULAS_PER_WORKSPACE} formulas.`, {
      limit: MAX_FORMULAS_PER_WORKSPACE,
    });
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
  const inserted = await deps.db.insert(formulas).values(row).onConflictDoNothing().returning({ id: formulas.id });
  if (inserted.length === 0) throw keyTaken(input.key);
  return presentFormula(row);
}

export async function listFormulas(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "analytics.read");
  const { rows, totalCount } = await newestFirstPage(deps.db, formulas, inTenant(formulas, tenantOf(principal)), page);
  return { rows: rows.map(presentFormula), totalCount };
}

export async function getFormula(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "analytics.read");
  return presentFormula(await findFormulaRow(deps, tenantOf(principal), id));
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
    .where(and(eq(formulas.id, row.id), eq(formulas.updatedAt, row.updatedAt)))
    .returning({ id: formulas.id })
    .catch((err: unknown) => {
      if (String(err).includes("UNIQUE")) throw keyTaken(key);
      throw err;
    });
  if (updated.length === 0) throw new ApiError("CONFLICT", "The formula changed meanwhile; read it and try again.", { id });
  return presentFormula(next);
}

export async function deleteFormula(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "analytics.manage");
  const tenant = tenantOf(principal);
  const row = await findFormulaRow(deps, tenant, id);
  const users = await deps.db
    .select({ key: formulas.key, refs: formulas.formulaRefs })
    .from(formulas)
    .where(and(inTenant(formulas, tenant), ne(formulas.id, row.id)));
  const usedBy = users.filter((u) => u.refs.includes(row.key)).map((u) => u.key);
  if (usedBy.length > 0)
    throw new ApiError("IN_USE", `Formulas ${usedBy.join(", ")} use '${row.key}'; delete or change them first.`, { usedBy });
  await deps.db.delete(formulas).where(and(eq(formulas.id, row.id), inTenant(formulas, tenant)));
  return { id: row.id, object: "formula" as const, deleted: true as const };
}

/** What a formula needs: the stored metrics its variables read (through nested formulas), and whether a total makes sense. */
function requirements(root: FormulaRow, vocab: Vocabulary) {
  const stored = new Set<string>();
  let hasTotal = true;
  const asts = new Map<string, FormulaNode>();
  const visit = (f: FormulaRow) => {
    if (asts.has(f.key)) return;
    const parsed = parseFormula(f.expression);
    if (!parsed.ok) throw expressionError(parsed.error); // stored formulas always parse; a grammar change would land here
    asts.set(f.key, parsed.formula.ast);
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
  };
  visit(root);
  return { stored: [...stored], hasTotal, asts };
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
  const { stored, hasTotal, asts } = requirements(row, words);
  const range = await resolveRange(deps, tenant, query);
  const data = await loadDaily(deps, tenant, stored, range.from, range.to);
  const formulaValue = evaluator(words, asts, data);
  const unit = row.unit as Unit;
  const { points, total } = seriesOf(range, unit, (p) => formulaValue(row.key, p), hasTotal);
  return { key: row.key, name: row.name, unit, ...range, points, total };
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
