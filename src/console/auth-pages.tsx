// Sign-up, sign-in, sign-out and the organization/workspace switcher. Forms post back here and
// redirect (303) on success; a failure re-renders the form with the reason in plain words.
import type { Hono } from "hono";
import { refuseCrossSite } from "../access/same-origin";
import { clearSessionCookie, setSessionCookie, sessionTokenOf } from "../access/session";
import { clientIp } from "../modules/accounts/routes";
import { LoginBody, SignUpBody } from "../modules/accounts/schemas";
import { logIn, logOut, signUp } from "../modules/accounts/service";
import { PASSWORD_MIN_LENGTH } from "../access/password";
import { requireSameOrigin } from "../access/same-origin";
import {
  type ConsoleContext,
  type ConsoleEnv,
  TENANT_COOKIE,
  isExpected,
  parseForm,
  plainError,
  requireConsoleSession,
  setTenantCookie,
  statusOf,
} from "./context";
import { Alert, Page } from "./layout";
import { deleteCookie } from "hono/cookie";

type FormValues = Record<string, string>;

/** Where sign-up and sign-in land: the dashboard (PLATFORM.md, "the first page after sign-in"). */
export const FIRST_PAGE = "/console/dashboard";

const text = (form: Record<string, unknown>, name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");

function SignInPage({ c, error, values }: { c: ConsoleContext; error?: string | undefined; values?: FormValues | undefined }) {
  return (
    <Page title="Sign in" shell={{ nonce: c.get("nonce") }}>
      <div class="card narrow">
        <h1>Sign in to Ponte</h1>
        {error ? <Alert kind="error">{error}</Alert> : null}
        <form method="post" action="/console/sign-in">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value={values?.email ?? ""} />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          <div class="actions">
            <button type="submit">Sign in</button>
            <a href="/console/sign-up">Create an account</a>
          </div>
        </form>
      </div>
    </Page>
  );
}

function SignUpPage({ c, error, values }: { c: ConsoleContext; error?: string | undefined; values?: FormValues | undefined }) {
  return (
    <Page title="Create an account" shell={{ nonce: c.get("nonce") }}>
      <div class="card narrow">
        <h1>Create your Ponte account</h1>
        {error ? <Alert kind="error">{error}</Alert> : null}
        <form method="post" action="/console/sign-up">
          <label for="name">Your name</label>
          <input id="name" name="name" type="text" autocomplete="name" required value={values?.name ?? ""} />
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value={values?.email ?? ""} />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={PASSWORD_MIN_LENGTH}
            required
            aria-describedby="password-help"
          />
          <p id="password-help" class="muted">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
          <label for="organizationName">Organization (your company)</label>
          <input
            id="organizationName"
            name="organizationName"
            type="text"
            autocomplete="organization"
            required
            value={values?.organizationName ?? ""}
          />
          <div class="actions">
            <button type="submit">Create account</button>
            <a href="/console/sign-in">I already have an account</a>
          </div>
        </form>
      </div>
    </Page>
  );
}

export function registerConsoleAuthPages(app: Hono<ConsoleEnv>) {
  app.get("/sign-in", (c) => c.html(<SignInPage c={c} />));
  app.get("/sign-up", (c) => c.html(<SignUpPage c={c} />));

  app.post("/sign-in", async (c) => {
    const form = await c.req.parseBody();
    const values = { email: text(form, "email") };
    try {
      refuseCrossSite(c);
      const input = parseForm(LoginBody, { email: text(form, "email").trim(), password: text(form, "password") });
      const result = await logIn(c.var.deps, input, clientIp(c));
      setSessionCookie(c, result.token);
      deleteCookie(c, TENANT_COOKIE, { path: "/console" });
      return c.redirect(FIRST_PAGE, 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      if (err.headers["Retry-After"]) c.header("Retry-After", err.headers["Retry-After"]);
      return c.html(<SignInPage c={c} error={plainError(err)} values={values} />, statusOf(err) as 400);
    }
  });

  app.post("/sign-up", async (c) => {
    const form = await c.req.parseBody();
    const values = { name: text(form, "name"), email: text(form, "email"), organizationName: text(form, "organizationName") };
    try {
      refuseCrossSite(c);
      const input = parseForm(SignUpBody, { ...values, email: values.email.trim(), password: text(form, "password") });
      const result = await signUp(c.var.deps, input, clientIp(c));
      setSessionCookie(c, result.token);
      deleteCookie(c, TENANT_COOKIE, { path: "/console" });
      return c.redirect(FIRST_PAGE, 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return c.html(<SignUpPage c={c} error={plainError(err)} values={values} />, statusOf(err) as 400);
    }
  });

  // Sign-out works even when the session already expired; it still needs the same-origin check.
  app.post("/sign-out", async (c) => {
    requireSameOrigin(c);
    const token = sessionTokenOf(c);
    if (token) await logOut(c.var.deps, token);
    clearSessionCookie(c);
    deleteCookie(c, TENANT_COOKIE, { path: "/console" });
    return c.redirect("/console/sign-in", 303);
  });

  app.post("/switch", requireConsoleSession(), async (c) => {
    const [organizationId, workspaceId] = text(await c.req.parseBody(), "tenant").split(".");
    const { memberships } = c.get("console");
    const allowed = memberships.some(
      (m) => m.organizationId === organizationId && m.workspaces.some((w) => w.id === workspaceId && !w.archived),
    );
    // Anything not offered by the switcher is ignored rather than trusted.
    if (allowed && organizationId && workspaceId) setTenantCookie(c, organizationId, workspaceId);
    const back = c.req.header("referer");
    const path = back && new URL(back).origin === new URL(c.req.url).origin ? new URL(back).pathname : "/console";
    return c.redirect(path.startsWith("/console") ? path : "/console", 303);
  });
}
