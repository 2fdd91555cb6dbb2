// Suppliers (surface internal, tag suppliers): list (search), create, get, update/archive, delete.
// Bearer key or console session; finance.read / finance.manage.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { pagination } from "../../http/pagination";
import {
  CreateSupplierBody,
  Supplier,
  SupplierListQuery,
  UpdateSupplierBody,
  createSupplier,
  deleteSupplier,
  getSupplier,
  listSuppliers,
  updateSupplier,
} from "./service";

const common = routeGroup("suppliers", "internal");
const READ = guard("finance.read", { allowSession: true });
const MANAGE = guard("finance.manage", { allowSession: true });
const DeletedSupplier = z.object({ id: z.uuid(), object: z.literal("supplier"), deleted: z.literal(true) }).openapi("DeletedSupplier");

export function registerSupplierRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/suppliers",
      operationId: "suppliers-create",
      summary: "Create a supplier",
      ...MANAGE,
      request: { body: jsonBody(CreateSupplierBody) },
      responses: { 201: dataResponse("The supplier.", Supplier), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createSupplier(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/suppliers",
      operationId: "suppliers-list",
      summary: "List suppliers (search by name or CPF/CNPJ with `q`)",
      ...READ,
      request: { query: SupplierListQuery },
      responses: { 200: listResponse("A page of suppliers, newest first.", Supplier), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, q, archived, defaultCostCategoryId } = c.req.valid("query");
      const filters = { q, defaultCostCategoryId, archived: archived === undefined ? undefined : archived === "true" };
      const { rows, totalCount } = await listSuppliers(c.get("deps"), c.get("principal"), { limit, offset }, filters);
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/suppliers/{id}",
      operationId: "suppliers-get",
      summary: "Get a supplier",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The supplier.", Supplier), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getSupplier(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/suppliers/{id}",
      operationId: "suppliers-update",
      summary: "Update or archive a supplier",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateSupplierBody) },
      responses: { 200: dataResponse("The supplier.", Supplier), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateSupplier(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/suppliers/{id}",
      operationId: "suppliers-delete",
      summary: "Delete a supplier (409 IN_USE while expenses point at it)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedSupplier), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteSupplier(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
