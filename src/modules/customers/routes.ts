// Customers: the six native catalogue operations (group Clientes), mirrored to the upstream.
// Each operation: its route, then its handler.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import { nativeOperation, permissionOf, successStatusOf } from "../../compat/catalogue-route";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import {
  AUTHENTICATED_ERRORS,
  UPSTREAM_ERRORS,
  WRITE_ERRORS,
  dataResponse,
  errorResponses,
  jsonBody,
  listResponse,
} from "../../http/openapi";
import { pagination } from "../../http/pagination";
import { CreateCustomerBody, Customer, CustomerListQuery, UpdateCustomerBody } from "./schemas";
import { createCustomer, deleteCustomer, getCustomer, listCustomers, restoreCustomer, updateCustomer } from "./service";

const CREATE = "criar-novo-cliente";
const LIST = "listar-clientes";
const GET = "recuperar-um-unico-cliente";
const UPDATE = "atualizar-cliente-existente";
const DELETE = "remover-cliente";
const RESTORE = "restaurar-cliente-removido";
const CREATE_STATUS = successStatusOf(CREATE, 200);
const UPDATE_STATUS = successStatusOf(UPDATE, 200);
const DELETE_STATUS = successStatusOf(DELETE, 200);
const RESTORE_STATUS = successStatusOf(RESTORE, 200);
const WRITE_AND_UPSTREAM_ERRORS = errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS);

export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...nativeOperation(CREATE),
      ...guard(permissionOf(CREATE)),
      request: { body: jsonBody(CreateCustomerBody) },
      responses: {
        [CREATE_STATUS]: dataResponse("The customer (syncStatus pending if the upstream did not answer).", Customer),
        ...WRITE_AND_UPSTREAM_ERRORS,
      },
    }),
    async (c) => ok(c, await createCustomer(c.get("deps"), c.get("principal"), c.req.valid("json")), CREATE_STATUS),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(LIST),
      ...guard(permissionOf(LIST)),
      request: { query: CustomerListQuery },
      responses: { 200: listResponse("A page of customers, newest first.", Customer), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const page = { limit, offset };
      const { rows, totalCount } = await listCustomers(c.get("deps"), c.get("principal"), page, filters);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...nativeOperation(GET),
      ...guard(permissionOf(GET)),
      request: { params: IdParam },
      responses: {
        200: dataResponse("The customer (deleted ones too, with deleted: true).", Customer),
        ...errorResponses(...AUTHENTICATED_ERRORS),
      },
    }),
    async (c) => ok(c, await getCustomer(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(UPDATE),
      ...guard(permissionOf(UPDATE)),
      request: { params: IdParam, body: jsonBody(UpdateCustomerBody) },
      responses: { [UPDATE_STATUS]: dataResponse("The updated customer.", Customer), ...WRITE_AND_UPSTREAM_ERRORS },
    }),
    async (c) =>
      ok(c, await updateCustomer(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), UPDATE_STATUS),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(DELETE),
      ...guard(permissionOf(DELETE)),
      request: { params: IdParam },
      responses: { [DELETE_STATUS]: dataResponse("The customer, now deleted: true (restorable).", Customer), ...WRITE_AND_UPSTREAM_ERRORS },
    }),
    async (c) => ok(c, await deleteCustomer(c.get("deps"), c.get("principal"), c.req.valid("param").id), DELETE_STATUS),
  );

  app.openapi(
    createRoute({
      ...nativeOperation(RESTORE),
      ...guard(permissionOf(RESTORE)),
      // The catalogue (as the upstream) gives restore a body; it carries nothing Ponte reads: `{}` will do.
      request: { params: IdParam, body: jsonBody(z.looseObject({}).openapi("RestoreCustomer")) },
      responses: { [RESTORE_STATUS]: dataResponse("The restored customer.", Customer), ...WRITE_AND_UPSTREAM_ERRORS },
    }),
    async (c) => ok(c, await restoreCustomer(c.get("deps"), c.get("principal"), c.req.valid("param").id), RESTORE_STATUS),
  );
}
