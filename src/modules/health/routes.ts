// Liveness and readiness (no auth).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { API_VERSION } from "../../config";
import type { AppEnv } from "../../http/app-env";
import { envelopeOf, errorResponses, ok , routeGroup } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { EXPECTED_MIGRATIONS } from "../../db/migrations-manifest";

const Health = z.object({ status: z.literal("ok"), environment: z.string(), version: z.string() }).openapi("Health");
const Ready = Health.extend({ database: z.literal("ok"), migrations: z.number().int() }).openapi("Readiness");
const common = { ...routeGroup("health", "internal"), security: [] };

const live = createRoute({
  ...common, method: "get", path: "/api/v1/health", operationId: "health-live", summary: "Liveness: the worker answers",
  responses: { 200: { description: "Alive.", content: { "application/json": { schema: envelopeOf(Health) } } } },
});
const ready = createRoute({
  ...common, method: "get", path: "/api/v1/health/ready", operationId: "health-ready", summary: "Readiness: D1 reachable and every migration applied",
  responses: { 200: { description: "Ready.", content: { "application/json": { schema: envelopeOf(Ready) } } }, ...errorResponses(503) },
});

export function registerHealthRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(live, (c) => ok(c, { status: "ok" as const, environment: c.env.ENVIRONMENT, version: API_VERSION }, 200));
  app.openapi(ready, async (c) => {
    let applied: string[];
    try {
      const { results } = await c.env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
      applied = results.map((r) => r.name);
    } catch {
      throw new ApiError("NOT_READY", "The database is unreachable or has no migrations applied.", { database: "unavailable" });
    }
    const missing = EXPECTED_MIGRATIONS.filter((m) => !applied.includes(m));
    if (missing.length > 0) throw new ApiError("NOT_READY", "Database migrations are not all applied.", { missing });
    return ok(c, { status: "ok" as const, environment: c.env.ENVIRONMENT, version: API_VERSION, database: "ok" as const, migrations: applied.length }, 200);
  });
}
