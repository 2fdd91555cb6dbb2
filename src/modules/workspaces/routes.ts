// Workspaces (control plane, surface internal).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../auth";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, envelopeOf, errorResponses, listEnvelopeOf, ok, okList , routeGroup } from "../../http/envelope";
import { PaginationQuery, pagination } from "../../http/pagination";
import { archiveWorkspace, createWorkspace, getWorkspace, listWorkspaces, updateWorkspace } from "./service";

const Workspace = z
  .object({
    id: z.uuid(),
    object: z.literal("workspace"),
    organizationId: z.uuid(),
    name: z.string(),
    status: z.enum(["active", "archived"]),
    archivedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Workspace");
const CreateWorkspace = z.strictObject({ name: z.string().trim().min(1).max(100) }).openapi("CreateWorkspace");
const UpdateWorkspace = z.strictObject({ name: z.string().trim().min(1).max(100).optional() }).openapi("UpdateWorkspace");
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });

const common = routeGroup("workspaces", "internal");
const one = (description: string) => ({ description, content: { "application/json": { schema: envelopeOf(Workspace) } } });

const create = createRoute({
  ...common, method: "post", path: "/api/v1/workspaces", operationId: "workspaces-create", summary: "Create a workspace",
  ...guard("workspaces.manage", { allowSession: true }),
  request: { body: { required: true, content: { "application/json": { schema: CreateWorkspace } } } },
  responses: { 201: one("Created."), ...errorResponses(...WRITE_ERRORS) },
});
const list = createRoute({
  ...common, method: "get", path: "/api/v1/workspaces", operationId: "workspaces-list", summary: "List workspaces",
  ...guard("workspaces.read", { allowSession: true }),
  request: { query: PaginationQuery },
  responses: { 200: { description: "A page of workspaces.", content: { "application/json": { schema: listEnvelopeOf(Workspace) } } }, ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const get = createRoute({
  ...common, method: "get", path: "/api/v1/workspaces/{id}", operationId: "workspaces-get", summary: "Get a workspace",
  ...guard("workspaces.read", { allowSession: true }),
  request: { params: IdParam },
  responses: { 200: one("The workspace."), ...errorResponses(...AUTHENTICATED_ERRORS) },
});
const update = createRoute({
  ...common, method: "patch", path: "/api/v1/workspaces/{id}", operationId: "workspaces-update", summary: "Rename a workspace",
  ...guard("workspaces.manage", { allowSession: true }),
  request: { params: IdParam, body: { required: true, content: { "application/json": { schema: UpdateWorkspace } } } },
  responses: { 200: one("Updated."), ...errorResponses(...WRITE_ERRORS) },
});
const archive = createRoute({
  ...common, method: "post", path: "/api/v1/workspaces/{id}/archive", operationId: "workspaces-archive", summary: "Archive a workspace (it then rejects API requests)",
  ...guard("workspaces.manage", { allowSession: true }),
  request: { params: IdParam },
  responses: { 200: one("Archived."), ...errorResponses(...WRITE_ERRORS) },
});

export function registerWorkspaceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(create, async (c) => ok(c, await createWorkspace(depsFrom(c), c.get("principal"), c.req.valid("json")), 201));
  app.openapi(list, async (c) => {
    const page = c.req.valid("query");
    const { rows, totalCount } = await listWorkspaces(depsFrom(c), c.get("principal"), page);
    return okList(c, rows, pagination(page, totalCount));
  });
  app.openapi(get, async (c) => ok(c, await getWorkspace(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => ok(c, await updateWorkspace(depsFrom(c), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(archive, async (c) => ok(c, await archiveWorkspace(depsFrom(c), c.get("principal"), c.req.valid("param").id), 200));
}
