// Audit logs (control plane, surface internal): who did what, newest first.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, errorResponses, listResponse, routeGroup } from "../../http/openapi";
import { PaginationQuery, pagination } from "../../http/pagination";
import { listAuditLogs } from "./service";
import { Instant } from "../../http/dates";

export const AuditLog = z
  .object({
    id: z.uuid(),
    object: z.literal("audit_log"),
    organizationId: z.uuid(),
    workspaceId: z.string().nullable(),
    actor: z.object({ type: z.enum(["api_key", "user", "system"]), id: z.string() }),
    action: z.string().openapi({ example: "api_key.created" }),
    target: z.object({ type: z.string(), id: z.string() }),
    requestId: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .openapi("AuditLog");

const AuditQuery = PaginationQuery.extend({
  action: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "action", in: "query" } }),
  targetId: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: "targetId", in: "query" } }),
  from: Instant.optional().openapi({ param: { name: "from", in: "query" }, description: "ISO 8601; entries at or after." }),
  to: Instant.optional().openapi({ param: { name: "to", in: "query" }, description: "ISO 8601; entries at or before." }),
});

const norm = (t?: string) => (t ? new Date(t).toISOString() : undefined);

export function registerAuditRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...routeGroup("audit", "internal"),
      method: "get",
      path: "/api/v1/audit-logs",
      operationId: "audit-logs-list",
      summary: "List audit log entries",
      ...guard("audit_logs.read", { allowSession: true }),
      request: { query: AuditQuery },
      responses: { 200: listResponse("A page of entries, newest first.", AuditLog), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const { limit, offset, ...filters } = c.req.valid("query");
      const range = { from: norm(filters.from), to: norm(filters.to) };
      const { rows, totalCount } = await listAuditLogs(c.get("deps"), c.get("principal"), { ...filters, ...range }, { limit, offset });
      const data = rows.map((r) => ({
        id: r.id,
        object: "audit_log" as const,
        organizationId: r.organizationId,
        workspaceId: r.workspaceId,
        actor: { type: r.actorType, id: r.actorId },
        action: r.action,
        target: { type: r.targetType, id: r.targetId },
        requestId: r.requestId,
        metadata: r.metadata ?? null,
        createdAt: r.createdAt,
      }));
      return okList(c, data, pagination({ limit, offset }, totalCount));
    },
  );
}
