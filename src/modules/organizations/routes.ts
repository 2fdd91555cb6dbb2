// The caller's organization (control plane, surface internal): read and rename it.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, routeGroup } from "../../http/openapi";
import { currentOrganization, presentOrganization as present, renameOrganization } from "./service";

const Organization = z
  .object({
    id: z.uuid(),
    object: z.literal("organization"),
    name: z.string(),
    defaultWorkspaceId: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Organization");
const UpdateOrganization = z.strictObject({ name: z.string().trim().min(1).max(100) }).openapi("UpdateOrganization");

const common = routeGroup("organizations", "internal");

export function registerOrganizationRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/organizations/current",
      operationId: "organizations-get-current",
      summary: "Get the caller's organization",
      ...guard("organizations.read", { allowSession: true }),
      responses: { 200: dataResponse("The organization.", Organization), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, present(await currentOrganization(c.var.deps, c.var.principal)), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/organizations/current",
      operationId: "organizations-update-current",
      summary: "Rename the caller's organization",
      ...guard("organizations.manage", { allowSession: true }),
      request: { body: jsonBody(UpdateOrganization) },
      responses: { 200: dataResponse("Updated.", Organization), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await renameOrganization(c.var.deps, c.var.principal, c.req.valid("json").name), 200),
  );
}
