// Console request plumbing: who is signed in, which organization/workspace the console acts in (the
// `ponte_console_tenant` cookie set by the switcher), security headers, and errors in plain words.
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { requireSameOrigin } from "../access/same-origin";
import { resolveSession, sessionTokenOf, type SessionPrincipal } from "../access/session";
import type { Deps } from "../deps";
import type { AppEnv } from "../http/app-env";
import { ApiError } from "../http/errors";
import { bytesToBase64 } from "../lib/base64";
import { validationFailed } from "../http/error-handler";
import { listMemberships, sessionUser, type MembershipView } from "../modules/accounts/service";
import type { ShellContext } from "./layout";
import type { ZodError } from "zod";

export const TENANT_COOKIE = "ponte_console_tenant";

export interface ConsoleSession {
  token: string;
  principal: SessionPrincipal;
  user: { id: string; name: string; email: string };
  memberships: MembershipView[];
  deps: Deps;
  shell: ShellContext;
}

export interface ConsoleEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { nonce: string; console: ConsoleSession };
}

export type ConsoleContext = Context<ConsoleEnv>;

/**
 * Every console response: a CSP that admits this response's inline style and script plus files from this
 * very origin (public/: the chart library, the console's scripts; never a CDN), fetches to this origin
 * only (live formula validation), no caching (secrets), no framing.
 */
export const consoleHeaders = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const nonce = bytesToBase64(bytes);
  c.set("nonce", nonce);
  await next();
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}' 'self'; script-src 'nonce-${nonce}' 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "same-origin");
  c.header("X-Content-Type-Options", "nosniff");
};

function tenantChoice(c: Context) {
  const [organizationId, workspaceId] = (getCookie(c, TENANT_COOKIE) ?? "").split(".");
  return organizationId && workspaceId ? { organizationId, workspaceId } : {};
}

export function setTenantCookie(c: Context, organizationId: string, workspaceId: string) {
  setCookie(c, TENANT_COOKIE, `${organizationId}.${workspaceId}`, { httpOnly: true, secure: true, sameSite: "Lax", path: "/console" });
}

/** Pages behind sign-in: redirects to the sign-in page without a live session; POSTs must be same-origin. */
export const requireConsoleSession = (): MiddlewareHandler<ConsoleEnv> => async (c, next) => {
  if (c.req.method === "POST") requireSameOrigin(c);
  const token = sessionTokenOf(c);
  const deps = c.get("deps");
  let principal: SessionPrincipal | null = null;
  if (token) {
    try {
      principal = await resolveSession(c.env, token, tenantChoice(c), deps.now());
    } catch (err) {
      // The remembered organization/workspace is no longer the user's: fall back to their default.
      if (!(err instanceof ApiError)) throw err;
      deleteCookie(c, TENANT_COOKIE, { path: "/console" });
      principal = await resolveSession(c.env, token, {}, deps.now()).catch(() => null);
    }
  }
  const current = token && principal ? await sessionUser(deps, token) : null;
  if (!token || !principal || !current) return c.redirect("/console/sign-in", 303);
  const memberships = await listMemberships(deps, current.user.id);
  c.set("console", {
    token,
    principal,
    user: { id: current.user.id, name: current.user.name, email: current.user.email },
    memberships,
    deps,
    shell: { nonce: c.get("nonce"), user: current.user, memberships, current: principal, active: undefined },
  });
  await next();
};

/** The shell for a page, marking its navigation entry. */
export const shellFor = (c: ConsoleContext, active: string): ShellContext => ({ ...c.get("console").shell, active });

/** What a person should read when an action fails: the API's message, and which fields are wrong. */
export function plainError(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = (err.details.fields as { path: string; message: string }[] | undefined) ?? [];
    if (err.code === "VALIDATION_FAILED" && fields.length > 0) {
      return `Please check: ${fields.map((f) => `${f.path.replace(/^body\./, "")} (${f.message})`).join("; ")}.`;
    }
    return err.message;
  }
  return "Something went wrong on our side. Please try again.";
}

export const isExpected = (err: unknown): err is ApiError => err instanceof ApiError;

/** zod parse of a form into an API body; failures become the same VALIDATION_FAILED the API answers. */
export function parseForm<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: unknown } },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFailed(result.error as ZodError, "json");
  return result.data;
}

/** The HTTP status an error page should carry. */
export const statusOf = (err: unknown) => (err instanceof ApiError ? err.status : 500);
