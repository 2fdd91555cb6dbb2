// The caller's organization (control plane, surface internal): read it, rename it, set its time zone.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, routeGroup } from "../../http/openapi";
import { RETENTION_BOUNDS } from "../../db/org-logs/retention";
import { logRetention, updateLogRetention } from "./retention";
import { TIME_ZONES, type TimeZone, isTimeZone } from "../../lib/time-zones";
import { currentOrganization, presentOrganization as present, updateOrganization } from "./service";

const Organization = z
  .object({
    id: z.uuid(),
    object: z.literal("organization"),
    name: z.string(),
    timeZone: z.string().openapi({ description: "IANA time zone analytics count days in (metrics, profitability, dashboard)." }),
    defaultWorkspaceId: z.uuid().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Organization");
const TimeZoneName = z
  .string()
  .refine(isTimeZone, `a supported IANA time zone: ${TIME_ZONES.join(", ")}`)
  .openapi({
    enum: [...TIME_ZONES],
    description:
      "Days of the metrics, profitability and dashboard in this zone. A change rebuilds every workspace's daily rollups in the request (needs analytics.manage and an organization-wide credential).",
  });
export const UpdateOrganization = z
  .strictObject({ name: z.string().trim().min(1).max(100).optional(), timeZone: TimeZoneName.optional() })
  .refine((b) => b.name !== undefined || b.timeZone !== undefined, "give name, timeZone or both")
  .openapi("UpdateOrganization");

const days = (field: keyof typeof RETENTION_BOUNDS, what: string) =>
  z
    .number()
    .int()
    .min(RETENTION_BOUNDS[field].min)
    .max(RETENTION_BOUNDS[field].max)
    .openapi({ description: `Days ${what} are kept (${RETENTION_BOUNDS[field].min}–${RETENTION_BOUNDS[field].max}).` });
const Bounds = z.object({ min: z.number().int(), max: z.number().int() });
const LogRetention = z
  .object({
    object: z.literal("log_retention"),
    gatewayApiLogDays: days("gatewayApiLogDays", "upstream calls (gateway-api-logs)"),
    webhookAttemptDays: days("webhookAttemptDays", "webhook delivery attempts"),
    auditLogDays: days("auditLogDays", "audit log entries"),
    bounds: z.object({ gatewayApiLogDays: Bounds, webhookAttemptDays: Bounds, auditLogDays: Bounds }),
  })
  .openapi("LogRetention");
const UpdateLogRetention = z
  .strictObject({
    gatewayApiLogDays: days("gatewayApiLogDays", "upstream calls (gateway-api-logs)").optional(),
    webhookAttemptDays: days("webhookAttemptDays", "webhook delivery attempts").optional(),
    auditLogDays: days("auditLogDays", "audit log entries").optional(),
  })
  .refine((v) => Object.values(v).some((d) => d !== undefined), { message: "Give at least one period." })
  .openapi("UpdateLogRetention");

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
    (c) => currentOrganization(c.get("deps"), c.get("principal")).then((row) => ok(c, present(row), 200)),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/organizations/current",
      operationId: "organizations-update-current",
      summary: "Rename the caller's organization or set its time zone (a new zone rebuilds the analytics rollups)",
      ...guard("organizations.manage", { allowSession: true }),
      request: { body: jsonBody(UpdateOrganization) },
      responses: { 200: dataResponse("Updated.", Organization), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => {
      const { name, timeZone } = c.req.valid("json");
      return ok(c, await updateOrganization(c.get("deps"), c.get("principal"), { name, timeZone: timeZone as TimeZone | undefined }), 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/organizations/current/retention",
      operationId: "organizations-get-retention",
      summary: "How long the organization's logs are kept",
      ...guard("organizations.read", { allowSession: true }),
      responses: { 200: dataResponse("The retention periods and their bounds.", LogRetention), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => ok(c, await logRetention(c.get("deps"), c.get("principal")), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: "/api/v1/organizations/current/retention",
      operationId: "organizations-update-retention",
      summary: "Change how long the organization's logs are kept (audited; older rows go at the next retention run)",
      ...guard("organizations.manage", { allowSession: true }),
      request: { body: jsonBody(UpdateLogRetention) },
      responses: { 200: dataResponse("Updated.", LogRetention), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await updateLogRetention(c.get("deps"), c.get("principal"), c.req.valid("json")), 200),
  );
}
