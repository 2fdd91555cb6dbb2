// Team: the organization's members (change a role, remove), invitations (invite by email and role,
// the link shown once, revoke). Everything goes through the members service and its role rules.
import type { Hono } from "hono";
import { ROLES, type Role } from "../lib/permissions";
import { requirePermission } from "../access/principal";
import { createInvitation, listInvitations, revokeInvitation } from "../modules/members/invitations";
import { missingPermissionsFor, roleOf } from "../modules/members/role-rules";
import { CreateInvitationBody, UpdateMemberBody } from "../modules/members/schemas";
import { changeMemberRole, listMembers, removeMember } from "../modules/members/service";
import { type ConsoleContext, type ConsoleEnv, isExpected, parseForm, plainError, shellFor, statusOf } from "./context";
import { Alert, Page, SecretOnce } from "./layout";

type MemberView = Awaited<ReturnType<typeof listMembers>>["rows"][number];
type InvitationView = Awaited<ReturnType<typeof listInvitations>>["rows"][number];

interface PageState {
  error?: string | undefined;
  notice?: string | undefined;
  invited?: { email: string; url: string } | undefined;
  values?: { email: string; role: string } | undefined;
}

const when = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "—");
const STATUS_BADGE = { pending: "warn", accepted: "ok", revoked: "bad", expired: "bad" } as const;
const NOTICES: Record<string, string> = {
  changed: "The role was changed; it applies from the member's next request.",
  removed: "The member was removed; they lost access at once.",
  revoked: "The invitation was revoked; its link no longer works.",
};

async function render(c: ConsoleContext, state: PageState, status: 200 | 201 | 400 | 403 | 404 | 409 | 500 = 200) {
  const { deps, principal, user } = c.get("console");
  if (!principal.permissions.has("members.read")) {
    return c.html(
      <Page title="Team" shell={shellFor(c, "/console/team")}>
        <h1>Team</h1>
        <Alert kind="error">Your role ({roleOf(principal)}) cannot see the organization's members. Ask an owner or an admin.</Alert>
      </Page>,
      403,
    );
  }
  const [members, invitations] = await Promise.all([
    listMembers(deps, principal, { limit: 100, offset: 0 }),
    listInvitations(deps, principal, { limit: 100, offset: 0 }),
  ]);
  const canManage = principal.permissions.has("members.manage");
  const isOwner = roleOf(principal) === "owner";
  // Roles this user may hand out (the same rules the service applies).
  const grantable = ROLES.filter((r) => (r !== "owner" || isOwner) && missingPermissionsFor(principal, r).length === 0);
  return c.html(
    <Page title="Team" shell={shellFor(c, "/console/team")}>
      <h1>Team</h1>
      {state.error ? <Alert kind="error">{state.error}</Alert> : null}
      {state.notice ? <Alert kind="success">{state.notice}</Alert> : null}
      {state.invited ? (
        <>
          <Alert kind="success">Invitation for {state.invited.email} created. Send them this link; it works once, for 7 days.</Alert>
          <SecretOnce
            id="new-invitation-link"
            label="Invitation link"
            value={state.invited.url}
            note="This is the only time it is shown: copy it now and send it to the person you invited."
          />
        </>
      ) : null}
      <h2>Members</h2>
      <MemberTable rows={members.rows} canManage={canManage} grantable={grantable} isOwner={isOwner} selfId={user.id} />
      <p />
      {canManage ? (
        <div class="card">
          <h2>Invite someone</h2>
          <form method="post" action="/console/team/invitations">
            <label for="invite-email">Email</label>
            <input id="invite-email" name="email" type="email" required maxlength={254} value={state.values?.email ?? ""} />
            <label for="invite-role">Role</label>
            <select id="invite-role" name="role">
              {grantable.map((r) => (
                <option value={r} selected={(state.values?.role ?? "developer") === r}>
                  {r}
                </option>
              ))}
            </select>
            <div class="actions">
              <button type="submit">Create invitation</button>
            </div>
          </form>
        </div>
      ) : null}
      <h2>Invitations</h2>
      <InvitationTable rows={invitations.rows} canManage={canManage} />
    </Page>,
    status,
  );
}

function MemberTable(props: { rows: MemberView[]; canManage: boolean; grantable: Role[]; isOwner: boolean; selfId: string }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Member since</th>
          <th scope="col">
            <span class="muted">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((m) => {
          // An owner is changed or removed only by an owner; the service says the same.
          const mayTouch = props.canManage && (m.role !== "owner" || props.isOwner) && props.grantable.includes(m.role);
          return (
            <tr>
              <td>
                {m.name}
                {m.userId === props.selfId ? <span class="muted"> (you)</span> : null}
              </td>
              <td>{m.email}</td>
              <td>
                <span class="badge">{m.role}</span>
              </td>
              <td>{when(m.createdAt)}</td>
              <td>
                {mayTouch ? (
                  <>
                    <form method="post" action={`/console/team/members/${m.id}/role`}>
                      <select id={`role-${m.id}`} name="role" aria-label={`Role for ${m.email}`}>
                        {props.grantable.map((r) => (
                          <option value={r} selected={r === m.role}>
                            {r}
                          </option>
                        ))}
                      </select>{" "}
                      <button type="submit" class="secondary" aria-label={`Change role of ${m.email}`}>
                        Change role
                      </button>
                    </form>{" "}
                    <form method="post" action={`/console/team/members/${m.id}/remove`}>
                      <button type="submit" class="danger" aria-label={`Remove ${m.email}`}>
                        Remove
                      </button>
                    </form>
                  </>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function InvitationTable({ rows, canManage }: { rows: InvitationView[]; canManage: boolean }) {
  if (rows.length === 0) return <p class="muted">No invitations yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Status</th>
          <th scope="col">Expires</th>
          <th scope="col">
            <span class="muted">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((i) => (
          <tr>
            <td>{i.email}</td>
            <td>{i.role}</td>
            <td>
              <span class={`badge ${STATUS_BADGE[i.status]}`}>{i.status}</span>
            </td>
            <td>{when(i.expiresAt)}</td>
            <td>
              {canManage && i.status === "pending" ? (
                <form method="post" action={`/console/team/invitations/${i.id}/revoke`}>
                  <button type="submit" class="danger" aria-label={`Revoke invitation for ${i.email}`}>
                    Revoke
                  </button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const text = (form: Record<string, unknown>, name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");

export function registerTeamPages(app: Hono<ConsoleEnv>) {
  app.get("/team", (c) => render(c, { notice: NOTICES[Object.keys(NOTICES).find((k) => c.req.query(k)) ?? ""] }));

  app.post("/team/invitations", async (c) => {
    const form = await c.req.parseBody();
    const values = { email: text(form, "email"), role: text(form, "role") };
    const { deps, principal } = c.get("console");
    try {
      requirePermission(principal, "members.manage");
      const input = parseForm(CreateInvitationBody, { email: values.email.trim(), role: values.role });
      const created = await createInvitation(deps, principal, input);
      return render(c, { invited: { email: created.email, url: created.url } }, 201);
    } catch (err) {
      if (!isExpected(err)) throw err;
      return render(c, { error: plainError(err), values }, statusOf(err) as 400);
    }
  });

  // Each action redirects on success (so a reload does not repeat it) and re-renders with the reason on failure.
  const action = (path: string, done: string, run: (c: ConsoleContext, id: string) => Promise<unknown>) =>
    app.post(path, async (c) => {
      try {
        requirePermission(c.get("console").principal, "members.manage");
        await run(c, c.req.param("id") ?? "");
        return c.redirect(`/console/team?${done}=1`, 303);
      } catch (err) {
        if (!isExpected(err)) throw err;
        return render(c, { error: plainError(err) }, statusOf(err) as 400);
      }
    });
  action("/team/members/:id/role", "changed", async (c, id) => {
    const { role } = parseForm(UpdateMemberBody, { role: text(await c.req.parseBody(), "role") });
    const { deps, principal } = c.get("console");
    await changeMemberRole(deps, principal, id, role);
  });
  action("/team/members/:id/remove", "removed", (c, id) => removeMember(c.get("console").deps, c.get("console").principal, id));
  action("/team/invitations/:id/revoke", "revoked", (c, id) => revokeInvitation(c.get("console").deps, c.get("console").principal, id));
}
