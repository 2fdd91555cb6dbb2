// Metrics, formulas, profitability and the dashboard (surface internal, a tag each). Bearer key or
// console session; analytics.read to read, analytics.manage to write formulas and rebuild the rollups.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import {
  AUTHENTICATED_ERRORS,
  WRITE_ERRORS,
  dataResponse,
  errorResponses,
  jsonBody,
  jsonContent,
  listResponse,
  routeGroup,
} from "../../http/openapi";
import { Dashboard, DashboardQuery, dashboard } from "./dashboard";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CreateFormulaBody, Formula, FormulaValidation, UpdateFormulaBody, ValidateFormulaBody } from "./formula-schemas";
import {
  createFormula,
  deleteFormula,
  formulaSeries,
  formulaSeriesByKey,
  getFormula,
  listFormulas,
  updateFormula,
  validateFormula,
} from "./formulas-service";
import { METRIC_KEYS } from "./metric-catalogue";
import { rebuildMetrics } from "./metrics-rebuild";
import { MetricInfo, Series, SeriesQuery, listMetrics, metricSeries } from "./metrics-service";
import { Profitability, ProfitabilityQuery, SHARED_COST_RULE, profitability } from "./profitability";

const metrics = routeGroup("metrics", "internal");
const formulas = routeGroup("formulas", "internal");
const profitabilityGroup = routeGroup("profitability", "internal");
const dashboardGroup = routeGroup("dashboard", "internal");
const READ = guard("analytics.read", { allowSession: true });
const MANAGE = guard("analytics.manage", { allowSession: true });

const KeyParam = z.object({
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,62}$/, "a metric key (see GET /metrics) or a formula key")
    .openapi({ param: { name: "key", in: "path" } }),
});
const Rebuild = z
  .object({
    object: z.literal("metrics_rebuild"),
    timeZone: z.string(),
    rows: z.number().int().openapi({ description: "Daily rows written." }),
    records: z.object({
      payments: z.number().int(),
      refunds: z.number().int(),
      subscriptions: z.number().int(),
      customers: z.number().int(),
      expenses: z.number().int(),
    }),
    rebuiltAt: z.string(),
  })
  .openapi("MetricsRebuild");
const DeletedFormula = z.object({ id: z.uuid(), object: z.literal("formula"), deleted: z.literal(true) }).openapi("DeletedFormula");
const stripRowsRead = <T extends { rowsRead: number }>({ rowsRead: _r, ...rest }: T) => rest;

const ProfitabilityEnvelope = z.object({
  data: Profitability,
  meta: z.object({
    requestId: z.string(),
    currency: z.literal("BRL"),
    sharedCostRule: z.string().openapi({ description: "How direct and shared costs are assigned to the rows." }),
    pagination: z
      .object({ limit: z.number().int(), offset: z.number().int(), totalCount: z.number().int(), hasMore: z.boolean() })
      .openapi({ description: "The page of `rows` (the key:null row counted, last); `totals` cover every row." }),
  }),
});

/** A formula's series: 409 when stored formulas form a cycle, 422 past a bound (docs/security.md "Limits"). */
const FORMULA_EVALUATION_ERRORS = [409, 422] as const;

export function registerAnalyticsRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...profitabilityGroup,
      method: "get",
      path: "/api/v1/profitability",
      operationId: "profitability-report",
      summary: "Revenue, costs (direct and shared), gross profit and margin by month, plan, customer or cost category",
      ...READ,
      request: { query: ProfitabilityQuery },
      responses: {
        200: {
          description:
            "A page of the rows (limit/offset; the key:null row, for what no row carries, last), and totals over the whole range equal to the metrics totals.",
          content: jsonContent(ProfitabilityEnvelope),
        },
        ...errorResponses(...AUTHENTICATED_ERRORS),
      },
    }),
    async (c) => {
      const { report, pagination: page } = await profitability(c.get("deps"), c.get("principal"), c.req.valid("query"));
      const meta = { requestId: c.get("requestId"), currency: "BRL" as const, sharedCostRule: SHARED_COST_RULE, pagination: page };
      return c.json({ data: report, meta }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...dashboardGroup,
      method: "get",
      path: "/api/v1/dashboard",
      operationId: "dashboard-get",
      summary: "The dashboard in one call: cards with the previous period, revenue vs expenses, top customers and plans, next charges due",
      ...READ,
      request: { query: DashboardQuery },
      responses: { 200: dataResponse("The dashboard.", Dashboard), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await dashboard(c.get("deps"), c.get("principal"), c.req.valid("query")), 200),
  );

  app.openapi(
    createRoute({
      ...metrics,
      method: "get",
      path: "/api/v1/metrics",
      operationId: "metrics-list",
      summary: "The metric catalogue: key, name, unit and how each is computed",
      ...READ,
      responses: { 200: dataResponse("Every metric.", z.array(MetricInfo)), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    (c) => ok(c, listMetrics(c.get("principal")), 200),
  );

  app.openapi(
    createRoute({
      ...metrics,
      method: "post",
      path: "/api/v1/metrics/rebuild",
      operationId: "metrics-rebuild",
      summary: "Recompute the workspace's daily rollups from its records (a repair; also after a time zone change)",
      ...MANAGE,
      responses: { 200: dataResponse("Rebuilt.", Rebuild), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await rebuildMetrics(c.get("deps"), c.get("principal")), 200),
  );

  app.openapi(
    createRoute({
      ...metrics,
      method: "get",
      path: "/api/v1/metrics/{key}",
      operationId: "metrics-series",
      summary: "A metric's series (or a formula's, by its key): one point per day, week or month, and the total",
      ...READ,
      request: { params: KeyParam, query: SeriesQuery },
      responses: { 200: dataResponse("The series.", Series), ...errorResponses(...AUTHENTICATED_ERRORS, ...FORMULA_EVALUATION_ERRORS) },
    }),
    async (c) => {
      const { key } = c.req.valid("param");
      const query = c.req.valid("query");
      const series = METRIC_KEYS.has(key)
        ? stripRowsRead(await metricSeries(c.get("deps"), c.get("principal"), key, query))
        : await formulaSeriesByKey(c.get("deps"), c.get("principal"), key, query);
      return ok(c, series, 200);
    },
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "post",
      path: "/api/v1/formulas",
      operationId: "formulas-create",
      summary: "Create a formula (400 naming the position of a syntax error, unknown variable or cycle)",
      ...MANAGE,
      request: { body: jsonBody(CreateFormulaBody) },
      responses: { 201: dataResponse("The formula.", Formula), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createFormula(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "post",
      path: "/api/v1/formulas/validate",
      operationId: "formulas-validate",
      summary: "Check an expression: the variables it uses, or a 400 naming the position and reason",
      ...READ,
      request: { body: jsonBody(ValidateFormulaBody) },
      responses: { 200: dataResponse("Valid.", FormulaValidation), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await validateFormula(c.get("deps"), c.get("principal"), c.req.valid("json").expression), 200),
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "get",
      path: "/api/v1/formulas",
      operationId: "formulas-list",
      summary: "List formulas",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of formulas, newest first.", Formula), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset } = c.req.valid("query");
      const { rows, totalCount } = await listFormulas(c.get("deps"), c.get("principal"), { limit, offset });
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "get",
      path: "/api/v1/formulas/{id}",
      operationId: "formulas-get",
      summary: "Get a formula",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The formula.", Formula), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getFormula(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "patch",
      path: "/api/v1/formulas/{id}",
      operationId: "formulas-update",
      summary: "Update a formula (the expression is checked again, cycles included)",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateFormulaBody) },
      responses: { 200: dataResponse("The formula.", Formula), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateFormula(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "delete",
      path: "/api/v1/formulas/{id}",
      operationId: "formulas-delete",
      summary: "Delete a formula (409 IN_USE while other formulas use it)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedFormula), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteFormula(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...formulas,
      method: "get",
      path: "/api/v1/formulas/{id}/series",
      operationId: "formulas-series",
      summary: "A formula's series, in the shape of a metric series",
      ...READ,
      request: { params: IdParam, query: SeriesQuery },
      responses: { 200: dataResponse("The series.", Series), ...errorResponses(...AUTHENTICATED_ERRORS, ...FORMULA_EVALUATION_ERRORS) },
    }),
    async (c) => ok(c, await formulaSeries(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("query")), 200),
  );
}
