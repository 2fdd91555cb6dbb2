// Customers: the six native catalogue operations (group Clientes), mirrored to the upstream.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { nativeOperation, permissionOf, successStatusOf } from "../../billing/native-route";
import { IdParam } from "../../billing/schemas";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { CreateCustomerBody, Customer, CustomerListQuery, UpdateCustomerBody } from "./schemas";
import { createCustomer, deleteCustomer, getCustomer, listCustomers, restoreCustomer, updateCustomer } from "./service";

const UPSTREAM_ERRORS = [502, 504] as const;
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Customer) } } });
const json = <T>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

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

const create = createRoute({
  ...nativeOperation(CREATE),
  ...guard(permissionOf(CREATE)),
  request: { body: json(CreateCustomerBody) },
  responses: { [CREATE_STATUS]: one("The customer (syncStatus pending if the upstream did not answer)."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const list = createRoute({
  ...nativeOperation(LIST),
  ...guard(permissionOf(LIST)),
  request: { query: PaginationQuery.extend(CustomerListQuery.shape) },
  responses: { 200: { description: "A page of customers, newest first.", content: { "application/json": { schema: listEnvelopeOf(Customer) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({
  ...nativeOperation(GET),
  ...guard(permissionOf(GET)),
  request: { params: IdParam },
  responses: { 200: one("The customer (deleted ones too, with deleted: true)."), ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const update = createRoute({
  ...nativeOperation(UPDATE),
  ...guard(permissionOf(UPDATE)),
  request: { params: IdParam, body: json(UpdateCustomerBody) },
  responses: { [UPDATE_STATUS]: one("The updated customer."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const remove = createRoute({
  ...nativeOperation(DELETE),
  ...guard(permissionOf(DELETE)),
  request: { params: IdParam },
  responses: { [DELETE_STATUS]: one("The customer, now deleted: true (restorable)."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});
const restore = createRoute({
  ...nativeOperation(RESTORE),
  ...guard(permissionOf(RESTORE)),
  request: { params: IdParam },
  responses: { [RESTORE_STATUS]: one("The restored customer."), ...errorResponses(...WRITE_ERRORS, ...UPSTREAM_ERRORS) },
});

export function registerCustomerRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createCustomer(depsFrom(c), c.get("principal"), c.req.valid("json")), CREATE_STATUS));
  app.openapi(list, async (c) => {
    const { limit, offset, ...filters } = c.req.valid("query");
    const page = { limit, offset };
    const { rows, totalCount } = await listCustomers(depsFrom(c), c.get("principal"), page, filters);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getCustomer(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => ok(c, await updateCustomer(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), UPDATE_STATUS));
  app.openapi(remove, async (c) => ok(c, await deleteCustomer(depsFrom(c), c.get("principal"), c.req.valid("param").id), DELETE_STATUS));
  app.openapi(restore, async (c) => ok(c, await restoreCustomer(depsFrom(c), c.get("principal"), c.req.valid("param").id), RESTORE_STATUS));
}
