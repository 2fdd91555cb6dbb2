// Plans (surface internal, tag plans): create, list, get, update, archive. Each operation: its
// route, then its handler.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CreatePlanBody, Plan, UpdatePlanBody, archivePlan, createPlan, getPlan, listPlans, updatePlan } from "./service";

const common = routeGroup("plans", "internal");
const PlanStatusQuery = z
  .enum(["active", "archived"])
  .optional()
  .openapi({ param: { name: "status", in: "query" } });

export function registerPlanRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/plans",
      operationId: "plans-create",
      summary: "Create a recurring billing plan",
      ...guard("plans.manage"),
      request: { body: jsonBody(CreatePlanBody) },
      responses: { 201: dataResponse("The plan (active).", Plan), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createPlan(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/plans",
      operationId: "plans-list",
      summary: "List plans",
      ...guard("plans.read"),
      request: { query: PaginationQuery.extend({ status: PlanStatusQuery }) },
      responses: { 200: listResponse("A page of plans, newest first.", Plan), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, status } = c.req.valid("query");
      const { rows, totalCount } = await listPlans(c.get("deps"), c.get("principal"), { limit, offset }, status);
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/plans/{id}",
      operationId: "plans-get",
      summary: "Get a plan",
      ...guard("plans.read"),
      request: { params: IdParam },
      responses: { 200: dataResponse("The plan.", Plan), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getPlan(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/plans/{id}",
      operationId: "plans-update",
      summary: "Update a plan (applies to subscriptions created afterwards)",
      ...guard("plans.manage"),
      request: { params: IdParam, body: jsonBody(UpdatePlanBody) },
      responses: { 200: dataResponse("The plan.", Plan), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updatePlan(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/plans/{id}/archive",
      operationId: "plans-archive",
      summary: "Archive a plan (no new subscriptions)",
      ...guard("plans.manage"),
      request: { params: IdParam },
      responses: { 200: dataResponse("The archived plan.", Plan), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await archivePlan(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
