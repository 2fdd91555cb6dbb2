// Plans (surface internal, tag plans): create, list, get, update, archive.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { IdParam } from "../../billing/schemas";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList, routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CreatePlanBody, Plan, UpdatePlanBody, archivePlan, createPlan, getPlan, listPlans, updatePlan } from "./service";

const common = routeGroup("plans", "internal");
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Plan) } } });
const json = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

const create = createRoute({ ...common, method: "post", path: "/api/v1/plans", operationId: "plans-create", summary: "Create a recurring billing plan", ...guard("plans.manage"), request: { body: json(CreatePlanBody) }, responses: { 201: one("The plan (active)."), ...errorResponses(...WRITE_ERRORS) } });
const list = createRoute({
  ...common, method: "get", path: "/api/v1/plans", operationId: "plans-list", summary: "List plans", ...guard("plans.read"),
  request: { query: PaginationQuery.extend({ status: z.enum(["active", "archived"]).optional().openapi({ param: { name: "status", in: "query" } }) }) },
  responses: { 200: { description: "A page of plans, newest first.", content: { "application/json": { schema: listEnvelopeOf(Plan) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({ ...common, method: "get", path: "/api/v1/plans/{id}", operationId: "plans-get", summary: "Get a plan", ...guard("plans.read"), request: { params: IdParam }, responses: { 200: one("The plan."), ...errorResponses(...AUTHENTICATED_ERRORS) } });
const update = createRoute({ ...common, method: "patch", path: "/api/v1/plans/{id}", operationId: "plans-update", summary: "Update a plan (applies to subscriptions created afterwards)", ...guard("plans.manage"), request: { params: IdParam, body: json(UpdatePlanBody) }, responses: { 200: one("The plan."), ...errorResponses(...WRITE_ERRORS) } });
const archive = createRoute({ ...common, method: "post", path: "/api/v1/plans/{id}/archive", operationId: "plans-archive", summary: "Archive a plan (no new subscriptions)", ...guard("plans.manage"), request: { params: IdParam }, responses: { 200: one("The archived plan."), ...errorResponses(...WRITE_ERRORS) } });

export function registerPlanRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createPlan(depsFrom(c), c.get("principal"), c.req.valid("json")), 201));
  app.openapi(list, async (c) => {
    const { limit, offset, status } = c.req.valid("query");
    const { rows, totalCount } = await listPlans(depsFrom(c), c.get("principal"), { limit, offset }, status);
    return okList(c, rows, pagination({ limit, offset }, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getPlan(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => ok(c, await updatePlan(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(archive, async (c) => ok(c, await archivePlan(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
}
