// Workspaces (control plane, surface internal).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
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
export const CreateWorkspace = z.strictObject({ name: z.string().trim().min(1).max(100) }).openapi("CreateWorkspace");
const UpdateWorkspace = z.strictObject({ name: z.string().trim().min(1).max(100).optional() }).openapi("UpdateWorkspace");
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });

const common = routeGroup("workspaces", "internal");
const READ = guard("workspaces.read", { allowSession: true });
const MANAGE = guard("workspaces.manage", { allowSession: true });

export function registerWorkspaceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/workspaces",
      operationId: "workspaces-create",
      summary: "Create a workspace",
      ...MANAGE,
      request: { body: jsonBody(CreateWorkspace) },
      responses: { 201: dataResponse("Created.", Workspace), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await createWorkspace(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/workspaces",
      operationId: "workspaces-list",
      summary: "List workspaces",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of workspaces.", Workspace), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listWorkspaces(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/workspaces/{id}",
      operationId: "workspaces-get",
      summary: "Get a workspace",
      ...READ,
      request: { params: IdParam },
      responses: { 200: dataResponse("The workspace.", Workspace), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await getWorkspace(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/workspaces/{id}",
      operationId: "workspaces-update",
      summary: "Rename a workspace",
      ...MANAGE,
      request: { params: IdParam, body: jsonBody(UpdateWorkspace) },
      responses: { 200: dataResponse("Updated.", Workspace), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateWorkspace(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/workspaces/{id}/archive",
      operationId: "workspaces-archive",
      summary: "Archive a workspace (it then rejects API requests)",
      ...MANAGE,
      request: { params: IdParam },
      responses: { 200: dataResponse("Archived.", Workspace), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await archiveWorkspace(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );
}
