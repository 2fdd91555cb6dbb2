// The caller's organization (control plane, surface internal): read and rename it.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, ok , routeGroup } from "../../http/envelope";
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
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Organization) } } });

const get = createRoute({
  ...common, method: "get", path: "/api/v1/organizations/current", operationId: "organizations-get-current", summary: "Get the caller's organization",
  ...guard("organizations.read", { allowSession: true }),
  responses: { 200: one("The organization."), ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const update = createRoute({
  ...common, method: "patch", path: "/api/v1/organizations/current", operationId: "organizations-update-current", summary: "Rename the caller's organization",
  ...guard("organizations.manage", { allowSession: true }),
  request: { body: { required: true, content: { "application/json": { schema: UpdateOrganization } } } },
  responses: { 200: one("Updated."), ...errorResponses(...WRITE_ERRORS) },
});

export function registerOrganizationRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(get, async (c) => ok(c, present(await currentOrganization(depsFrom(c), c.get("principal"))), 200));
  app.openapi(update, async (c) => ok(c, await renameOrganization(depsFrom(c), c.get("principal"), c.req.valid("json").name), 200));
}
