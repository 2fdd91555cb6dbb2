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
import type { Child } from "hono/jsx";
import { ApiError } from "../http/errors";
import { type ConsoleContext, type ConsoleEnv, TENANT_COOKIE, parseForm, requireConsoleSession, setTenantCookie } from "./context";
import { Alert, Page } from "./layout";
import { deleteCookie } from "hono/cookie";
import { Field, type FormField, type FormState, formAction, postedValues } from "./parts/action-form";

/** Where sign-up and sign-in land: the dashboard (PLATFORM.md, "the first page after sign-in"). */
export const FIRST_PAGE = "/console/dashboard";

const EMAIL: FormField = { name: "email", label: "Email", type: "email", id: "email", autocomplete: "username", required: true };
const CURRENT_PASSWORD: FormField = {
  name: "password",
  label: "Password",
  type: "password",
  id: "password",
  autocomplete: "current-password",
  required: true,
};
/** A password being chosen (sign-up, accepting an invitation): the minimum length said beside it. */
export const NEW_PASSWORD: FormField = {
  ...CURRENT_PASSWORD,
  autocomplete: "new-password",
  minlength: PASSWORD_MIN_LENGTH,
  hint: `At least ${PASSWORD_MIN_LENGTH} characters.`,
};

/** A signed-out page's one form in a narrow card: the fields, the submit button and the other way in beside it. */
function AccountForm(props: {
  c: ConsoleContext;
  title: string;
  heading: string;
  action: string;
  fields: FormField[];
  submit: string;
  beside: Child;
  state: FormState;
}) {
  return (
    <Page title={props.title} shell={{ nonce: props.c.get("nonce") }}>
      <div class="card narrow">
        <h1>{props.heading}</h1>
        {props.state.error ? <Alert kind="error">{props.state.error}</Alert> : null}
        <form method="post" action={props.action}>
          {props.fields.map((f) => (
            <Field field={f} formId="account" state={props.state} />
          ))}
          <div class="actions">
            <button type="submit">{props.submit}</button>
            {props.beside}
          </div>
        </form>
      </div>
    </Page>
  );
}

const SignInPage = ({ c, state = {} }: { c: ConsoleContext; state?: FormState }) => (
  <AccountForm
    c={c}
    title="Sign in"
    heading="Sign in to Ponte"
    action="/console/sign-in"
    fields={[EMAIL, CURRENT_PASSWORD]}
    submit="Sign in"
    beside={<a href="/console/sign-up">Create an account</a>}
    state={state}
  />
);

const SignUpPage = ({ c, state = {} }: { c: ConsoleContext; state?: FormState }) => (
  <AccountForm
    c={c}
    title="Create an account"
    heading="Create your Ponte account"
    action="/console/sign-up"
    fields={[
      { name: "name", label: "Your name", id: "name", autocomplete: "name", required: true },
      EMAIL,
      NEW_PASSWORD,
      {
        name: "organizationName",
        label: "Organization (your company)",
        id: "organizationName",
        autocomplete: "organization",
        required: true,
      },
    ]}
    submit="Create account"
    beside={<a href="/console/sign-in">I already have an account</a>}
    state={state}
  />
);

/** The password as typed (never trimmed: spaces are part of it). */
export const typedPassword = async (c: ConsoleContext) => {
  const { password } = await c.req.parseBody();
  return typeof password === "string" ? password : "";
};

/** Signed in: the session cookie, and the console starts in the user's default organization/workspace. */
function startSession(c: ConsoleContext, token: string) {
  setSessionCookie(c, token);
  deleteCookie(c, TENANT_COOKIE, { path: "/console" });
}

export function registerConsoleAuthPages(app: Hono<ConsoleEnv>) {
  app.get("/sign-in", (c) => c.html(<SignInPage c={c} />));
  app.get("/sign-up", (c) => c.html(<SignUpPage c={c} />));

  formAction(app, "/sign-in", {
    fields: ["email"],
    run: async (c, values) => {
      try {
        refuseCrossSite(c);
        const input = parseForm(LoginBody, { email: values.email, password: await typedPassword(c) });
        startSession(c, (await logIn(c.get("deps"), input, clientIp(c))).token);
      } catch (err) {
        // Too many attempts: say when to try again.
        if (err instanceof ApiError && err.headers["Retry-After"]) c.header("Retry-After", err.headers["Retry-After"]);
        throw err;
      }
    },
    done: FIRST_PAGE,
    render: async (c, state, status) => c.html(<SignInPage c={c} state={state} />, status),
  });

  formAction(app, "/sign-up", {
    fields: ["name", "email", "organizationName"],
    run: async (c, values) => {
      refuseCrossSite(c);
      const input = parseForm(SignUpBody, { ...values, password: await typedPassword(c) });
      startSession(c, (await signUp(c.get("deps"), input, clientIp(c))).token);
    },
    done: FIRST_PAGE,
    render: async (c, state, status) => c.html(<SignUpPage c={c} state={state} />, status),
  });

  // Sign-out works even when the session already expired; it still needs the same-origin check.
  app.post("/sign-out", async (c) => {
    requireSameOrigin(c);
    const token = sessionTokenOf(c);
    if (token) await logOut(c.get("deps"), token);
    clearSessionCookie(c);
    deleteCookie(c, TENANT_COOKIE, { path: "/console" });
    return c.redirect("/console/sign-in", 303);
  });

  app.post("/switch", requireConsoleSession(), async (c) => {
    const [organizationId, workspaceId] = ((await postedValues(c, ["tenant"])).tenant ?? "").split(".");
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
