// Accepting an invitation from its link (no sign-in needed to open it): a signed-in invitee joins with one
// click; anyone else creates their account (email fixed by the invitation) and joins. On success the
// console switches to the new organization.
import type { Hono } from "hono";
import { refuseCrossSite, requireSameOrigin } from "../access/same-origin";
import { sessionTokenOf, setSessionCookie } from "../access/session";
import { ApiError } from "../http/errors";
import { sessionUser } from "../modules/accounts/service";
import { acceptInvitation, ACCEPT_PAGE_PATH, findInvitationByToken } from "../modules/members/invitations";
import { AcceptInvitationBody } from "../modules/members/schemas";
import { NEW_PASSWORD, typedPassword } from "./auth-pages";
import { type ConsoleContext, type ConsoleEnv, parseForm, setTenantCookie } from "./context";
import { Alert, Page } from "./layout";
import { Field, type FormField, type FormState, formAction } from "./parts/action-form";

const UNUSABLE = {
  accepted: "This invitation link was already used.",
  revoked: "This invitation was revoked; ask for a new one.",
  expired: "This invitation has expired; ask for a new one.",
} as const;

/** A new account for the invited email (shown, not editable): a name and a password. */
const newAccountFields = (email: string): FormField[] => [
  { name: "invitedEmail", label: "Email", type: "email", id: "invite-email", readonly: true, value: email },
  { name: "name", label: "Your name", id: "name", autocomplete: "name", required: true, maxlength: 100 },
  NEW_PASSWORD,
];

async function render(c: ConsoleContext, token: string, state: FormState = {}, status: 200 | 400 | 401 | 403 | 404 | 409 = 200) {
  const { error } = state;
  const deps = c.get("deps");
  const shell = { nonce: c.get("nonce") };
  const found = token ? await findInvitationByToken(deps, token) : null;
  const sessionToken = sessionTokenOf(c);
  const signedIn = sessionToken ? await sessionUser(deps, sessionToken) : null;
  const problem = !found ? "This invitation link is not valid." : found.status !== "pending" ? UNUSABLE[found.status] : null;
  return c.html(
    <Page title="Join an organization" shell={shell}>
      <div class="card narrow">
        {found && !problem ? (
          <>
            <h1>Join {found.organizationName}</h1>
            <p>
              You were invited as <strong>{found.invitation.role}</strong> ({found.invitation.email}).
            </p>
            {error ? <Alert kind="error">{error}</Alert> : null}
            {signedIn ? (
              signedIn.user.email === found.invitation.email ? (
                <form method="post" action={ACCEPT_PAGE_PATH}>
                  <input type="hidden" name="token" value={token} />
                  <p class="muted">Signed in as {signedIn.user.email}.</p>
                  <button type="submit">Accept invitation</button>
                </form>
              ) : (
                <Alert kind="error">
                  You are signed in as {signedIn.user.email}, but this invitation is for {found.invitation.email}. Sign out, then open the
                  link again.
                </Alert>
              )
            ) : (
              <form method="post" action={ACCEPT_PAGE_PATH}>
                <input type="hidden" name="token" value={token} />
                {newAccountFields(found.invitation.email).map((f) => (
                  <Field field={f} formId="accept" state={state} />
                ))}
                <div class="actions">
                  <button type="submit">Create account and join</button>
                </div>
                <p class="muted">
                  Already have an account for this email? <a href="/console/sign-in">Sign in</a>, then open this link again.
                </p>
              </form>
            )}
          </>
        ) : (
          <>
            <h1>Invitation</h1>
            <Alert kind="error">{problem ?? error ?? "This invitation link is not valid."}</Alert>
            <p>
              <a href="/console">Go to the console</a>
            </p>
          </>
        )}
      </div>
    </Page>,
    problem ? (found ? 409 : 404) : status,
  );
}

export function registerInvitationPages(app: Hono<ConsoleEnv>) {
  app.get("/invitations/accept", (c) => render(c, c.req.query("token") ?? ""));

  formAction(app, "/invitations/accept", {
    fields: ["token", "name"],
    run: async (c, values) => {
      const deps = c.get("deps");
      const sessionToken = sessionTokenOf(c);
      let signedIn = null;
      if (sessionToken) {
        requireSameOrigin(c);
        signedIn = (await sessionUser(deps, sessionToken))?.user ?? null;
        if (!signedIn) throw new ApiError("UNAUTHORIZED", "Your session has ended; sign in again, then open the link again.");
      } else refuseCrossSite(c);
      const { token, name } = values;
      const input = parseForm(AcceptInvitationBody, signedIn ? { token } : { token, name, password: await typedPassword(c) });
      const { accepted, session, workspaceId } = await acceptInvitation(deps, input, signedIn);
      if (session) setSessionCookie(c, session.token);
      if (workspaceId) setTenantCookie(c, accepted.organizationId, workspaceId);
    },
    done: "/console",
    render: (c, state, status) => render(c, state.values?.token ?? "", state, status),
  });
}
