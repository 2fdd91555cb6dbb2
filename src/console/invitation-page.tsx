// Accepting an invitation from its link (no sign-in needed to open it): a signed-in invitee joins with one
// click; anyone else creates their account (email fixed by the invitation) and joins. On success the
// console switches to the new organization.
import type { Hono } from "hono";
import { PASSWORD_MIN_LENGTH } from "../access/password";
import { refuseCrossSite, requireSameOrigin } from "../access/same-origin";
import { sessionTokenOf, setSessionCookie } from "../access/session";
import { ApiError } from "../http/errors";
import { sessionUser } from "../modules/accounts/service";
import { acceptInvitation, ACCEPT_PAGE_PATH, findInvitationByToken } from "../modules/members/invitations";
import { AcceptInvitationBody } from "../modules/members/schemas";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, setTenantCookie, statusOf } from "./context";
import { Alert, Page } from "./layout";

const text = (form: Record<string, unknown>, name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");

const UNUSABLE = {
  accepted: "This invitation link was already used.",
  revoked: "This invitation was revoked; ask for a new one.",
  expired: "This invitation has expired; ask for a new one.",
} as const;

async function render(
  c: ConsoleContext,
  token: string,
  error?: string,
  status: 200 | 400 | 401 | 403 | 404 | 409 = 200,
  values?: { name: string },
) {
  const deps = c.var.deps;
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
                <label for="invite-email">Email</label>
                <input id="invite-email" type="email" readonly value={found.invitation.email} />
                <label for="name">Your name</label>
                <input id="name" name="name" type="text" autocomplete="name" required maxlength={100} value={values?.name ?? ""} />
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

  app.post("/invitations/accept", async (c) => {
    const form = await c.req.parseBody();
    const token = text(form, "token");
    const deps = c.var.deps;
    try {
      const sessionToken = sessionTokenOf(c);
      let signedIn = null;
      if (sessionToken) {
        requireSameOrigin(c);
        signedIn = (await sessionUser(deps, sessionToken))?.user ?? null;
        if (!signedIn) throw new ApiError("UNAUTHORIZED", "Your session has ended; sign in again, then open the link again.");
      } else refuseCrossSite(c);
      const input = parseForm(
        AcceptInvitationBody,
        signedIn ? { token } : { token, name: text(form, "name"), password: text(form, "password") },
      );
      const { accepted, session, workspaceId } = await acceptInvitation(deps, input, signedIn);
      if (session) setSessionCookie(c, session.token);
      if (workspaceId) setTenantCookie(c, accepted.organizationId, workspaceId);
      return c.redirect("/console", 303);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, token, plainError(err), statusOf(err) as 400, { name: text(form, "name") });
    }
  });
}
