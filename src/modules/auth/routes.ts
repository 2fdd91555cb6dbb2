// Authentication (surface internal): console sign-up, sign-in, sign-out, who-am-I, password change.
// The session travels only in the HttpOnly `ponte_session` cookie, never in a response body.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ROLES } from "../../lib/permissions";
import { isWriteMethod, refuseCrossSite, requireSameOrigin } from "../../auth/same-origin";
import { clearSessionCookie, resolveSession, sessionTokenOf, setSessionCookie } from "../../auth/session";
import { ORGANIZATION_HEADER, WORKSPACE_HEADER } from "../../auth/tenant-headers";
import { depsFrom } from "../../deps";
import type { AppEnv } from "../../http/app-env";
import { envelopeOf, errorResponses, ok, routeGroup } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { LoginBody, PasswordBody, SignUpBody, User } from "./schemas";
import { changePassword, describeCurrent, listMemberships, logIn, logOut, sessionUser, signUp } from "./service";

const SESSION_SECURITY = [{ sessionCookie: [] }];
const SessionStarted = z
  .object({ user: User, expiresAt: z.string().openapi({ description: "The session cookie's expiry (fixed, 7 days from sign-in)." }) })
  .openapi("SessionStarted");
const Membership = z.object({
  organizationId: z.uuid(),
  organizationName: z.string(),
  role: z.enum(ROLES as [string, ...string[]]),
  workspaces: z.array(z.object({ id: z.uuid(), name: z.string(), isDefault: z.boolean(), archived: z.boolean() })),
});
const Me = z
  .object({
    user: User,
    memberships: z.array(Membership),
    current: z
      .object({ organizationId: z.uuid(), workspaceId: z.uuid(), role: z.string(), permissions: z.array(z.string()) })
      .nullable()
      .openapi({ description: "The organization and workspace this session acts in (X-Organization-Id / X-Workspace-Id, else the first membership and its default workspace)." }),
  })
  .openapi("Me");

const common = routeGroup("auth", "internal");
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });

const signup = createRoute({
  ...common, method: "post", path: "/api/v1/auth/signup", operationId: "auth-signup", security: [],
  summary: "Create a console account: user, organization, default workspace and owner membership; starts a session",
  request: json(SignUpBody),
  responses: { 201: { description: "Signed up; the `ponte_session` cookie is set.", content: { "application/json": { schema: envelopeOf(SessionStarted) } } }, ...errorResponses(400, 403, 409, 413, 415, 429, 500) },
});
const login = createRoute({
  ...common, method: "post", path: "/api/v1/auth/login", operationId: "auth-login", security: [],
  summary: "Sign in with email and password; sets the session cookie",
  request: json(LoginBody),
  responses: { 200: { description: "Signed in.", content: { "application/json": { schema: envelopeOf(SessionStarted) } } }, ...errorResponses(400, 401, 403, 413, 415, 429, 500) },
});
const logout = createRoute({
  ...common, method: "post", path: "/api/v1/auth/logout", operationId: "auth-logout", summary: "End this session", security: SESSION_SECURITY,
  responses: { 200: { description: "Signed out; the cookie is cleared.", content: { "application/json": { schema: envelopeOf(z.object({ signedOut: z.literal(true) })) } } }, ...errorResponses(401, 403, 500) },
});
const me = createRoute({
  ...common, method: "get", path: "/api/v1/auth/me", operationId: "auth-me", summary: "The signed-in user, their memberships and the current organization/workspace", security: SESSION_SECURITY,
  request: {
    headers: z.object({
      [ORGANIZATION_HEADER]: z.string().optional().openapi({ param: { name: ORGANIZATION_HEADER, in: "header" } }),
      [WORKSPACE_HEADER]: z.string().optional().openapi({ param: { name: WORKSPACE_HEADER, in: "header" } }),
    }),
  },
  responses: { 200: { description: "The session's user.", content: { "application/json": { schema: envelopeOf(Me) } } }, ...errorResponses(400, 401, 403, 500) },
});
const password = createRoute({
  ...common, method: "post", path: "/api/v1/auth/password", operationId: "auth-change-password",
  summary: "Change the password: ends every other session of the user and rotates this one", security: SESSION_SECURITY,
  request: json(PasswordBody),
  responses: { 200: { description: "Changed; a new session cookie is set.", content: { "application/json": { schema: envelopeOf(z.object({ expiresAt: z.string() })) } } }, ...errorResponses(400, 401, 403, 413, 415, 429, 500) },
});

export const clientIp = (c: Context) => c.req.header("cf-connecting-ip") ?? "unknown";

/** The session behind the cookie, or 401; a write also needs the same-origin check. */
async function currentSession(c: Context<AppEnv>) {
  const token = sessionTokenOf(c);
  if (!token) throw new ApiError("UNAUTHORIZED", "Sign in first: no console session cookie was sent.");
  if (isWriteMethod(c.req.method)) requireSameOrigin(c);
  const current = await sessionUser(depsFrom(c), token);
  if (!current) throw new ApiError("UNAUTHORIZED", "The session has expired or was ended; sign in again.");
  return { token, ...current };
}

export function registerAuthRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(signup, async (c) => {
    refuseCrossSite(c);
    const result = await signUp(depsFrom(c), c.req.valid("json"), clientIp(c));
    setSessionCookie(c, result.token);
    return ok(c, { user: result.user, expiresAt: result.expiresAt }, 201);
  });
  app.openapi(login, async (c) => {
    refuseCrossSite(c);
    const result = await logIn(depsFrom(c), c.req.valid("json"), clientIp(c));
    setSessionCookie(c, result.token);
    return ok(c, { user: result.user, expiresAt: result.expiresAt }, 200);
  });
  app.openapi(logout, async (c) => {
    const { token } = await currentSession(c);
    await logOut(depsFrom(c), token);
    clearSessionCookie(c);
    return ok(c, { signedOut: true as const }, 200);
  });
  app.openapi(me, async (c) => {
    const { token, user } = await currentSession(c);
    const deps = depsFrom(c);
    const choice = { organizationId: c.req.header(ORGANIZATION_HEADER), workspaceId: c.req.header(WORKSPACE_HEADER) };
    const [memberships, principal] = await Promise.all([
      listMemberships(deps, user.id),
      resolveSession(c.env, token, choice, deps.now()).catch((err) => {
        // No membership at all is not an error for "who am I"; a header naming a foreign tenant is.
        if (err instanceof ApiError && !choice.organizationId && !choice.workspaceId) return null;
        throw err;
      }),
    ]);
    return ok(c, { user: { id: user.id, object: "user" as const, email: user.email, name: user.name, createdAt: user.createdAt }, memberships, current: describeCurrent(principal) }, 200);
  });
  app.openapi(password, async (c) => {
    const current = await currentSession(c);
    const result = await changePassword(depsFrom(c), current, c.req.valid("json"), clientIp(c));
    setSessionCookie(c, result.token);
    return ok(c, { expiresAt: result.expiresAt }, 200);
  });
}
