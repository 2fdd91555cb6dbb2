// Liveness and readiness (no auth).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { API_VERSION } from "../../config";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { dataResponse, errorResponses, routeGroup } from "../../http/openapi";
import { ApiError } from "../../http/errors";
import { EXPECTED_MIGRATIONS } from "../../db/migrations-manifest";

const Health = z.object({ status: z.literal("ok"), environment: z.string(), version: z.string() }).openapi("Health");
const Ready = Health.extend({ database: z.literal("ok"), migrations: z.number().int() }).openapi("Readiness");
const common = { ...routeGroup("health", "internal"), security: [] };

export function registerHealthRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/health",
      operationId: "health-live",
      summary: "Liveness: the worker answers",
      responses: { 200: dataResponse("Alive.", Health) },
    }),
    (c) => ok(c, { status: "ok" as const, environment: c.env.ENVIRONMENT, version: API_VERSION }, 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/health/ready",
      operationId: "health-ready",
      summary: "Readiness: D1 reachable and every migration applied",
      responses: { 200: dataResponse("Ready.", Ready), ...errorResponses(503) },
    }),
    async (c) => {
      let applied: string[];
      try {
        const { results } = await c.env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
        applied = results.map((r) => r.name);
      } catch {
        throw new ApiError("NOT_READY", "The database is unreachable or has no migrations applied.", { database: "unavailable" });
      }
      const missing = EXPECTED_MIGRATIONS.filter((m) => !applied.includes(m));
      if (missing.length > 0) throw new ApiError("NOT_READY", "Database migrations are not all applied.", { missing });
      const ready = {
        status: "ok" as const,
        environment: c.env.ENVIRONMENT,
        version: API_VERSION,
        database: "ok" as const,
        migrations: applied.length,
      };
      return ok(c, ready, 200);
    },
  );
}
