// Cost categories (surface internal, tag cost-categories): list, create, get, update, delete.
// Bearer key or console session; finance.read / finance.manage.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import {
  CostCategory,
  CreateCostCategoryBody,
  UpdateCostCategoryBody,
  createCostCategory,
  deleteCostCategory,
  getCostCategory,
  listCostCategories,
  updateCostCategory,
} from "./service";

const common = routeGroup("cost-categories", "internal");
const READ = guard("finance.read", { allowSession: true });
const MANAGE = guard("finance.manage", { allowSession: true });
const DeletedCostCategory = z
  .object({ id: z.uuid(), object: z.literal("cost_category"), deleted: z.literal(true) })
  .openapi("DeletedCostCategory");
const ListQuery = PaginationQuery.extend({
  kind: z
    .enum(["FIXED", "VARIABLE"])
    .optional()
    .openapi({ param: { name: "kind", in: "query" } }),
  parentId: z
    .uuid()
    .optional()
    .openapi({ param: { name: "parentId", in: "query" } }),
  archived: z
    .enum(["true", "false"])
    .optional()
    .openapi({ param: { name: "archived", in: "query" } }),
});

export function registerCostCategoryRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/cost-categories",
      operationId: "cost-categories-create",
      summary: "Create a cost category (top level, or a child of a top-level one)",
      ...MANAGE,
      request: { body: jsonBody(CreateCostCategoryBody) },
      responses: { 201: dataResponse("The category.", CostCategory), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createCostCategory(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/cost-categories",
      operationId: "cost-categories-list",
      summary: "List cost categories",
      ...READ,
      request: { query: ListQuery },
      responses: { 200: listResponse("A page of categories, newest first.", CostCategory), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, kind, parentId, archived } = c.req.valid("query");
      const filters = { kind, parentId, archived: archived === undefined ? undefined : archived === "true" };
      const { rows, totalCount } = await listCostCategories(c.get("deps"), c.get("principal"), { limit, offset }, filters);
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/cost-categories/{id}",
      operationId: "cost-categories-get",
      summary: "Get a cost category",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The category.", CostCategory), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getCostCategory(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/cost-categories/{id}",
      operationId: "cost-categories-update",
      summary: "Update or archive a cost category (409 IN_USE when a new key would leave formulas using the old one)",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateCostCategoryBody) },
      responses: { 200: dataResponse("The category.", CostCategory), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateCostCategory(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/cost-categories/{id}",
      operationId: "cost-categories-delete",
      summary: "Delete a cost category (409 IN_USE while expenses, children, suppliers, AWS connections or formulas use it)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedCostCategory), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteCostCategory(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
