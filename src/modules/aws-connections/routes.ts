// AWS connections (surface internal, tag aws-connections): list, create, get, update, delete, verify,
// sync. Bearer key or console session; finance.read / finance.manage.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { IdParam } from "../../billing/schemas";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { listQuery, pagination } from "../../http/pagination";
import { AwsSyncResult, SyncBody, syncAwsConnection } from "./cost-import";
import {
  AwsConnection,
  CreateAwsConnectionBody,
  UpdateAwsConnectionBody,
  createAwsConnection,
  deleteAwsConnection,
  getAwsConnection,
  listAwsConnections,
  updateAwsConnection,
  verifyAwsConnection,
} from "./service";

const common = routeGroup("aws-connections", "internal");
const READ = guard("finance.read", { allowSession: true });
const MANAGE = guard("finance.manage", { allowSession: true });
const DeletedAwsConnection = z
  .object({ id: z.uuid(), object: z.literal("aws_connection"), deleted: z.literal(true) })
  .openapi("DeletedAwsConnection");
const ListQuery = listQuery({
  status: z
    .enum(["PENDING", "ACTIVE", "FAILED", "DISABLED"])
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
});

export function registerAwsConnectionRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/aws-connections",
      operationId: "aws-connections-create",
      summary: "Connect an AWS account (ACCESS_KEY: the secret is write-only; ROLE: Ponte generates the externalId)",
      ...MANAGE,
      request: { body: jsonBody(CreateAwsConnectionBody) },
      responses: { 201: dataResponse("The connection (PENDING until verified).", AwsConnection), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/aws-connections",
      operationId: "aws-connections-list",
      summary: "List AWS connections",
      ...READ,
      request: { query: ListQuery },
      responses: { 200: listResponse("A page of connections, newest first.", AwsConnection), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, status } = c.req.valid("query");
      const { rows, totalCount } = await listAwsConnections(c.get("deps"), c.get("principal"), { limit, offset }, status);
      return okList(c, rows, pagination({ limit, offset }, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/aws-connections/{id}",
      operationId: "aws-connections-get",
      summary: "Get an AWS connection (status, last error, synced through)",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The connection.", AwsConnection), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/aws-connections/{id}",
      operationId: "aws-connections-update",
      summary: "Update an AWS connection: name, category, exchange rate, credentials or role (back to PENDING), disable",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateAwsConnectionBody) },
      responses: { 200: dataResponse("The connection.", AwsConnection), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/aws-connections/{id}",
      operationId: "aws-connections-delete",
      summary: "Delete an AWS connection (the expenses it imported stay)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Deleted.", DeletedAwsConnection), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await deleteAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/aws-connections/{id}/verify",
      operationId: "aws-connections-verify",
      summary: "Verify an AWS connection with STS GetCallerIdentity (after AssumeRole for ROLE)",
      description:
        "200 either way: ACTIVE with `awsAccountId`, or FAILED with AWS's error in `lastError` (e.g. `InvalidClientTokenId: …`). 409 INVALID_STATE when DISABLED.",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("The connection after verification.", AwsConnection), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await verifyAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/aws-connections/{id}/sync",
      operationId: "aws-connections-sync",
      summary: "Import the AWS costs of {from, to} (default the last 30 days) as expenses, one per day and service",
      description:
        "Cost Explorer GetCostAndUsage (UnblendedCost, DAILY, grouped by SERVICE, every NextPageToken page). Expenses are upserted by `sourceRef` (`aws:<connection>:<day>:<service>`): a re-sync corrects amounts, never duplicates. 200 either way: `ok: false` leaves the connection FAILED with `lastError`.",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(SyncBody, false) },
      responses: { 200: dataResponse("What the sync did.", AwsSyncResult), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await syncAwsConnection(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json") ?? {}), 200),
  );
}
