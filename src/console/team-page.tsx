// Team: the organization's members (change a role, remove), invitations (invite by email and role,
// the link shown once, revoke). Everything goes through the members service and its role rules.
import type { Hono } from "hono";
import { ROLES, type Role } from "../lib/permissions";
import { requirePermission } from "../access/principal";
import { createInvitation, listInvitations, revokeInvitation } from "../modules/members/invitations";
import { missingPermissionsFor, roleOf } from "../modules/members/role-rules";
import { CreateInvitationBody, UpdateMemberBody } from "../modules/members/schemas";
import { changeMemberRole, listMembers, removeMember } from "../modules/members/service";
import { type ConsoleContext, type ConsoleEnv, parseForm, shellFor } from "./context";
import { Alert, Page, SecretOnce } from "./layout";
import { ActionForm, ButtonForm, type FormState, formAction, Outcome } from "./parts/action-form";
import { DataTable } from "./parts/data-table";

type MemberView = Awaited<ReturnType<typeof listMembers>>["rows"][number];
type InvitationView = Awaited<ReturnType<typeof listInvitations>>["rows"][number];

interface PageState extends FormState {
  invited?: { email: string; url: string } | undefined;
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
      <Outcome state={state} />
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
        <ActionForm
          id="invite"
          title="Invite someone"
          action="/console/team/invitations"
          submit="Create invitation"
          state={state}
          stacked
          fields={[
            { name: "email", label: "Email", type: "email", id: "invite-email", required: true, maxlength: 254 },
            { name: "role", label: "Role", type: "select", id: "invite-role", options: grantable, value: "developer" },
          ]}
        />
      ) : null}
      <h2>Invitations</h2>
      <InvitationTable rows={invitations.rows} canManage={canManage} />
    </Page>,
    status,
  );
}

function MemberTable(props: { rows: MemberView[]; canManage: boolean; grantable: Role[]; isOwner: boolean; selfId: string }) {
  // An owner is changed or removed only by an owner; the service says the same.
  const mayTouch = (m: MemberView) => props.canManage && (m.role !== "owner" || props.isOwner) && props.grantable.includes(m.role);
  return (
    <DataTable
      rows={props.rows}
      empty="No members."
      columns={[
        {
          label: "Name",
          cell: (m) => (
            <>
              {m.name}
              {m.userId === props.selfId ? <span class="muted"> (you)</span> : null}
            </>
          ),
        },
        { label: "Email", cell: (m) => m.email },
        { label: "Role", cell: (m) => <span class="badge">{m.role}</span> },
        { label: "Member since", cell: (m) => when(m.createdAt) },
        {
          label: "Actions",
          hiddenLabel: true,
          cell: (m) =>
            mayTouch(m) ? (
              <>
                <ActionForm
                  id={`member-${m.id}`}
                  bare
                  stacked
                  action={`/console/team/members/${m.id}/role`}
                  submit="Change role"
                  submitClass="secondary"
                  submitLabel={`Change role of ${m.email}`}
                  fields={[
                    {
                      name: "role",
                      label: `Role for ${m.email}`,
                      hiddenLabel: true,
                      type: "select",
                      id: `role-${m.id}`,
                      options: props.grantable,
                      value: m.role,
                    },
                  ]}
                />{" "}
                <ButtonForm action={`/console/team/members/${m.id}/remove`} submit="Remove" kind="danger" label={`Remove ${m.email}`} />
              </>
            ) : null,
        },
      ]}
    />
  );
}

function InvitationTable({ rows, canManage }: { rows: InvitationView[]; canManage: boolean }) {
  return (
    <DataTable
      rows={rows}
      empty="No invitations yet."
      columns={[
        { label: "Email", cell: (i) => i.email },
        { label: "Role", cell: (i) => i.role },
        { label: "Status", cell: (i) => <span class={`badge ${STATUS_BADGE[i.status]}`}>{i.status}</span> },
        { label: "Expires", cell: (i) => when(i.expiresAt) },
        {
          label: "Actions",
          hiddenLabel: true,
          cell: (i) =>
            canManage && i.status === "pending" ? (
              <ButtonForm
                action={`/console/team/invitations/${i.id}/revoke`}
                submit="Revoke"
                kind="danger"
                label={`Revoke invitation for ${i.email}`}
              />
            ) : null,
        },
      ]}
    />
  );
}

export function registerTeamPages(app: Hono<ConsoleEnv>) {
  app.get("/team", (c) => render(c, { notice: NOTICES[Object.keys(NOTICES).find((k) => c.req.query(k)) ?? ""] }));
  const ctx = (c: ConsoleContext) => c.get("console");
  const refused = (c: ConsoleContext, state: FormState, status: 400) => render(c, state, status);

  // The invitation's link is shown once, in this response.
  formAction(app, "/team/invitations", {
    fields: ["email", "role"],
    run: (c, values) => {
      requirePermission(ctx(c).principal, "members.manage");
      return createInvitation(ctx(c).deps, ctx(c).principal, parseForm(CreateInvitationBody, values));
    },
    show: (c, created) => {
      const { email, url } = created as Awaited<ReturnType<typeof createInvitation>>;
      return render(c, { invited: { email, url } }, 201);
    },
    render: refused,
  });

  // Each of these redirects on success (so a reload does not repeat it) and re-renders with the reason on failure.
  const action = (path: string, done: string, run: (c: ConsoleContext, id: string, role: string) => Promise<unknown>) =>
    formAction(app, path, {
      fields: ["role"],
      run: (c, values, id) => {
        requirePermission(ctx(c).principal, "members.manage");
        return run(c, id, values.role ?? "");
      },
      done: `/console/team?${done}=1`,
      render: (c, state, status) => render(c, { error: state.error }, status),
    });
  action("/team/members/:id/role", "changed", (c, id, role) =>
    changeMemberRole(ctx(c).deps, ctx(c).principal, id, parseForm(UpdateMemberBody, { role }).role),
  );
  action("/team/members/:id/remove", "removed", (c, id) => removeMember(ctx(c).deps, ctx(c).principal, id));
  action("/team/invitations/:id/revoke", "revoked", (c, id) => revokeInvitation(ctx(c).deps, ctx(c).principal, id));
}
