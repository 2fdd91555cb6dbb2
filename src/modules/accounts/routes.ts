// Authentication (surface internal): console sign-up, sign-in, sign-out, who-am-I, password change.
// The session travels only in the HttpOnly `ponte_session` cookie, never in a response body. Each
// operation: its route, then its handler.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { ROLES } from "../../lib/permissions";
import { isWriteMethod, refuseCrossSite, requireSameOrigin } from "../../access/same-origin";
import { clearSessionCookie, resolveSession, sessionTokenOf, setSessionCookie } from "../../access/session";
import { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "../../http/tenant-headers";
import type { AppEnv } from "../../http/app-env";
import { ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { dataResponse, errorResponses, jsonBody, routeGroup } from "../../http/openapi";
import { LoginBody, PasswordBody, SignUpBody, User } from "./schemas";
import { changePassword, describeCurrent, listMemberships, logIn, logOut, sessionUser, signUp } from "./service";

const SESSION_SECURITY = [{ sessionCookie: [] }];
export const SessionStarted = z
  .object({ user: User, expiresAt: z.string().openapi({ description: "The session cookie's expiry (fixed, 7 days from sign-in)." }) })
  .openapi("SessionStarted");
const Membership = z.object({
  organizationId: z.uuid(),
  organizationName: z.string(),
  role: z.enum(ROLES as [string, ...string[]]),
  workspaces: z.array(z.object({ id: z.uuid(), name: z.string(), isDefault: z.boolean(), archived: z.boolean() })),
});
export const Me = z
  .object({
    user: User,
    memberships: z.array(Membership),
    current: z
      .object({ organizationId: z.uuid(), workspaceId: z.uuid(), role: z.string(), permissions: z.array(z.string()) })
      .nullable()
      .openapi({
        description:
          "The organization and workspace this session acts in (X-Organization-Id / X-Workspace-Id, else the first membership and its default workspace).",
      }),
  })
  .openapi("Me");

const common = routeGroup("auth", "internal");

export const clientIp = (c: Context) => c.req.header("cf-connecting-ip") ?? "unknown";

/** The session behind the cookie, or 401; a write also needs the same-origin check. */
async function currentSession(c: Context<AppEnv>) {
  const token = sessionTokenOf(c);
  if (!token) throw new ApiError("UNAUTHORIZED", "Sign in first: no console session cookie was sent.");
  if (isWriteMethod(c.req.method)) requireSameOrigin(c);
  const current = await sessionUser(c.get("deps"), token);
  if (!current) throw new ApiError("UNAUTHORIZED", "The session has expired or was ended; sign in again.");
  return { token, ...current };
}

/** Sessions resolved by `signedIn()` for the handler, per request. */
const sessionOfRequest = new WeakMap<Context, Awaited<ReturnType<typeof currentSession>>>();

/** Route middleware: the session (401 without one) before any validator runs. */
function signedIn(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    sessionOfRequest.set(c, await currentSession(c));
    await next();
  };
}

export function registerAuthRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/auth/signup",
      operationId: "auth-signup",
      security: [],
      summary: "Create a console account: user, organization, default workspace and owner membership; starts a session",
      request: { body: jsonBody(SignUpBody) },
      responses: {
        201: dataResponse("Signed up; the `ponte_session` cookie is set.", SessionStarted),
        ...errorResponses(400, 403, 409, 413, 415, 429, 500),
      },
    }),
    async (c) => {
      refuseCrossSite(c);
      const result = await signUp(c.get("deps"), c.req.valid("json"), clientIp(c));
      setSessionCookie(c, result.token);
      return ok(c, { user: result.user, expiresAt: result.expiresAt }, 201);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/auth/login",
      operationId: "auth-login",
      security: [],
      summary: "Sign in with email and password; sets the session cookie",
      request: { body: jsonBody(LoginBody) },
      responses: { 200: dataResponse("Signed in.", SessionStarted), ...errorResponses(400, 401, 403, 413, 415, 429, 500) },
    }),
    async (c) => {
      refuseCrossSite(c);
      const result = await logIn(c.get("deps"), c.req.valid("json"), clientIp(c));
      setSessionCookie(c, result.token);
      return ok(c, { user: result.user, expiresAt: result.expiresAt }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/auth/logout",
      operationId: "auth-logout",
      summary: "End this session",
      security: SESSION_SECURITY,
      responses: {
        200: dataResponse("Signed out; the cookie is cleared.", z.object({ signedOut: z.literal(true) })),
        ...errorResponses(401, 403, 500),
      },
    }),
    async (c) => {
      const { token } = await currentSession(c);
      await logOut(c.get("deps"), token);
      clearSessionCookie(c);
      return ok(c, { signedOut: true as const }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/auth/me",
      operationId: "auth-me",
      summary: "The signed-in user, their memberships and the current organization/workspace",
      security: SESSION_SECURITY,
      request: {
        headers: z.object({
          [ORGANIZATION_HEADER]: z
            .string()
            .optional()
            .openapi({ param: { name: ORGANIZATION_HEADER, in: "header" } }),
          [WORKSPACE_HEADER]: z
            .string()
            .optional()
            .openapi({ param: { name: WORKSPACE_HEADER, in: "header" } }),
        }),
      },
      responses: { 200: dataResponse("The session's user.", Me), ...errorResponses(400, 401, 403, 500) },
    }),
    async (c) => {
      const { token, user } = await currentSession(c);
      const deps = c.get("deps");
      const choice = { organizationId: c.req.header(ORGANIZATION_HEADER), workspaceId: c.req.header(WORKSPACE_HEADER) };
      const [memberships, principal] = await Promise.all([
        listMemberships(deps, user.id),
        resolveSession(c.env, token, choice, deps.now()).catch((err) => {
          // No membership at all is not an error for "who am I"; a header naming a foreign tenant is.
          if (err instanceof ApiError && !choice.organizationId && !choice.workspaceId) return null;
          throw err;
        }),
      ]);
      const userView = { id: user.id, object: "user" as const, email: user.email, name: user.name, createdAt: user.createdAt };
      return ok(c, { user: userView, memberships, current: describeCurrent(principal) }, 200);
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/auth/password",
      operationId: "auth-change-password",
      summary: "Change the password: ends every other session of the user and rotates this one",
      security: SESSION_SECURITY,
      // The session is checked before the body, so a caller without one learns 401, not which fields are wrong.
      middleware: [signedIn()] as const,
      request: { body: jsonBody(PasswordBody) },
      responses: {
        200: dataResponse("Changed; a new session cookie is set.", z.object({ expiresAt: z.string() })),
        ...errorResponses(400, 401, 403, 413, 415, 429, 500),
      },
    }),
    async (c) => {
      const current = sessionOfRequest.get(c) ?? (await currentSession(c));
      const result = await changePassword(c.get("deps"), current, c.req.valid("json"), clientIp(c));
      setSessionCookie(c, result.token);
      return ok(c, { expiresAt: result.expiresAt }, 200);
    },
  );
}
