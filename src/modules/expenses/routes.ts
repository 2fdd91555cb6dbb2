// Expenses (surface internal, tag expenses): list (filters), create, get, update, delete, pay.
// Bearer key or console session; finance.read / finance.manage.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { pagination } from "../../http/pagination";
import { CreateExpenseBody, Expense, ExpenseListQuery, PayExpenseBody, UpdateExpenseBody } from "./rows";
import { createExpense, deleteExpense, getExpense, listExpenses, payExpense, updateExpense } from "./service";

const common = routeGroup("expenses", "internal");
const READ = guard("finance.read", { allowSession: true });
const MANAGE = guard("finance.manage", { allowSession: true });
const DeletedExpense = z.object({ id: z.uuid(), object: z.literal("expense"), deleted: z.literal(true) }).openapi("DeletedExpense");

export function registerExpenseRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/expenses",
      operationId: "expenses-create",
      summary: "Record an expense (BRL, or USD with its exchange rate)",
      ...MANAGE,
      request: { body: jsonBody(CreateExpenseBody) },
      responses: { 201: dataResponse("The expense.", Expense), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createExpense(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/expenses",
      operationId: "expenses-list",
      summary: "List expenses (filters on dates, category, supplier, status, source, plan, customer, currency)",
      ...READ,
      request: { query: ExpenseListQuery },
      responses: { 200: listResponse("A page of expenses, newest first.", Expense), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const { rows, totalCount } = await listExpenses(c.get("deps"), c.get("principal"), { limit, offset }, filters);
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/expenses/{id}",
      operationId: "expenses-get",
      summary: "Get an expense",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The expense.", Expense), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getExpense(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/expenses/{id}",
      operationId: "expenses-update",
      summary: "Update or cancel an expense (an imported one: category and allocation only)",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateExpenseBody) },
      responses: { 200: dataResponse("The expense.", Expense), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateExpense(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/expenses/{id}/pay",
      operationId: "expenses-pay",
      summary: "Mark a PENDING expense PAID (409 INVALID_STATE otherwise)",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(PayExpenseBody, false) },
      responses: { 200: dataResponse("The expense.", Expense), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await payExpense(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json") ?? {}), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/expenses/{id}",
      operationId: "expenses-delete",
      summary: "Delete an expense (an imported one: 409 INVALID_STATE)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedExpense), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteExpense(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
