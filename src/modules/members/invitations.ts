// Invitations: a one-time link (shown once, stored as its SHA-256, valid for LIMITS.invitationTtlSeconds)
// that joins its holder to the organization with the invited role, as a new account or a signed-in one.
import { and, eq, sql } from "drizzle-orm";
import { hashPassword } from "../../access/password";
import { ROLE_PERMISSION_SETS } from "../../lib/permissions";
import { requirePermission, type Principal } from "../../access/principal";
import { randomToken, sha256Hex } from "../../lib/secret-box";
import { keyEnvironmentFor, LIMITS, publicOrigin } from "../../config";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { newestFirstPage } from "../../db/paging";
import { invitations, memberships, organizations, users } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry } from "../audit/service";
import { normalizeEmail, openSession, presentUser } from "../accounts/service";
import { assertMayGrant, assertMayRevokeInvitation, assertOrganizationWide } from "./role-rules";
import { presentMember } from "./service";
import type { Role } from "../../lib/permissions";

type InvitationRow = typeof invitations.$inferSelect;
type UserRow = typeof users.$inferSelect;
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export const INVITATION_TOKEN_PREFIX = "pinv_";
export const ACCEPT_PAGE_PATH = "/console/invitations/accept";

export function invitationStatus(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now.toISOString() ? "expired" : "pending";
}

export function presentInvitation(row: InvitationRow, now: Date) {
  return {
    id: row.id,
    object: "invitation" as const,
    email: row.email,
    role: row.role,
    status: invitationStatus(row, now),
    invitedBy: row.invitedBy,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    acceptedAt: row.acceptedAt,
    revokedAt: row.revokedAt,
  };
}

/** The link the invitee opens: the deployment's public origin (never the request's Host) plus the console's accept page. */
export function invitationUrl(deps: Deps, token: string): string {
  return `${publicOrigin(deps.env)}${ACCEPT_PAGE_PATH}?token=${encodeURIComponent(token)}`;
}

export async function createInvitation(deps: Deps, principal: Principal, input: { email: string; role: Role }) {
  requirePermission(principal, "members.manage");
  assertMayGrant(principal, input.role);
  const email = normalizeEmail(input.email);
  const now = deps.now();
  const [member, pending] = await deps.db.batch([
    deps.db
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.organizationId, principal.organizationId), eq(users.email, email))),
    deps.db
      .select()
      .from(invitations)
      .where(and(eq(invitations.organizationId, principal.organizationId), eq(invitations.email, email))),
  ]);
  if (member[0])
    throw new ApiError("CONFLICT", `${email} is already a member of this organization.`, { field: "email", memberId: member[0].id });
  const open = pending.find((row) => invitationStatus(row, now) === "pending");
  if (open)
    throw new ApiError("CONFLICT", `${email} already has a pending invitation; revoke it to send a new one.`, {
      field: "email",
      invitationId: open.id,
    });

  const token = `${INVITATION_TOKEN_PREFIX}${randomToken(32)}`;
  const row: InvitationRow = {
    id: newId(),
    organizationId: principal.organizationId,
    email,
    role: input.role,
    tokenHash: await sha256Hex(token),
    invitedBy: principal.actorId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LIMITS.invitationTtlSeconds * 1000).toISOString(),
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
  };
  await deps.db.batch([
    deps.db.insert(invitations).values(row),
    auditEntry(deps, principal, {
      action: "invitation.created",
      targetType: "invitation",
      targetId: row.id,
      metadata: { email, role: row.role, expiresAt: row.expiresAt },
    }),
  ]);
  return { ...presentInvitation(row, now), token, url: invitationUrl(deps, token) };
}

export async function listInvitations(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "members.read");
  const { rows, totalCount } = await newestFirstPage(deps.db, invitations, eq(invitations.organizationId, principal.organizationId), page);
  const now = deps.now();
  return { rows: rows.map((row) => presentInvitation(row, now)), totalCount };
}

/** Revoking stops the link working at once; idempotent; an accepted invitation cannot be revoked (remove the member instead). */
export async function revokeInvitation(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "members.manage");
  assertOrganizationWide(principal);
  const row = await deps.db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.organizationId, principal.organizationId)))
    .get();
  if (!row) throw notFound("invitation", id);
  assertMayRevokeInvitation(principal, row.role);
  const now = deps.now();
  if (row.acceptedAt)
    throw new ApiError("INVALID_STATE", "This invitation was already accepted; remove the member instead.", { status: "accepted" });
  if (row.revokedAt) return presentInvitation(row, now);
  const revokedAt = now.toISOString();
  await deps.db.batch([
    deps.db.update(invitations).set({ revokedAt }).where(eq(invitations.id, id)),
    auditEntry(deps, principal, {
      action: "invitation.revoked",
      targetType: "invitation",
      targetId: id,
      metadata: { email: row.email, role: row.role },
    }),
  ]);
  return presentInvitation({ ...row, revokedAt }, now);
}

/** The invitation a token names, with its organization; null for an unknown token. */
export async function findInvitationByToken(deps: Deps, token: string) {
  const row = await deps.db
    .select({ invitation: invitations, organizationName: organizations.name, defaultWorkspaceId: organizations.defaultWorkspaceId })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(eq(invitations.tokenHash, await sha256Hex(token)))
    .get();
  return row ? { ...row, status: invitationStatus(row.invitation, deps.now()) } : null;
}

const NOT_USABLE: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation link was already used.",
  revoked: "This invitation was revoked; ask for a new one.",
  expired: "This invitation has expired; ask for a new one.",
};

export interface AcceptInvitationInput {
  token: string;
  /** A new account (no signed-in user): its name and password; the email is the invitation's. */
  name?: string | undefined;
  password?: string | undefined;
}

/**
 * Joins `signedIn` (whose email must be the invited one), or a new account created from `input`, to the
 * organization. One batch claims the invitation and writes the membership: the membership's role is read
 * from the invitation row this very request claimed, so a token that another request used first yields
 * NULL, the NOT NULL constraint aborts the batch, and nothing of the loser is kept.
 */
export async function acceptInvitation(deps: Deps, input: AcceptInvitationInput, signedIn: UserRow | null) {
  const found = await findInvitationByToken(deps, input.token);
  if (!found) throw new ApiError("NOT_FOUND", "This invitation link is not valid.");
  const { invitation } = found;
  if (found.status !== "pending") throw new ApiError("INVALID_STATE", NOT_USABLE[found.status], { status: found.status });

  const now = deps.now().toISOString();
  let user: UserRow;
  let session: Awaited<ReturnType<typeof openSession>> | null = null;
  if (signedIn) {
    if (signedIn.email !== invitation.email) {
      throw new ApiError("FORBIDDEN", `This invitation is for ${invitation.email}; sign in with that account to accept it.`, {
        invitedEmail: invitation.email,
      });
    }
    user = signedIn;
  } else {
    const { name, password } = input;
    if (!name || !password) {
      const fields = [
        ...(name ? [] : [{ path: "body.name", message: "required for a new account", code: "invalid_type" }]),
        ...(password ? [] : [{ path: "body.password", message: "required for a new account", code: "invalid_type" }]),
      ];
      throw new ApiError(
        "VALIDATION_FAILED",
        "A new account needs a name and a password (or sign in first to accept with an existing account).",
        { fields },
      );
    }
    const existing = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, invitation.email)).get();
    if (existing)
      throw new ApiError("CONFLICT", `An account for ${invitation.email} already exists: sign in, then open the invitation link again.`, {
        field: "email",
      });
    user = {
      id: newId(),
      email: invitation.email,
      name,
      passwordHash: await hashPassword(password),
      createdAt: now,
      updatedAt: now,
    };
    session = await openSession(deps, user.id);
  }

  const membershipId = newId();
  const claimedRole = sql`(SELECT ${invitations.role} FROM ${invitations}
    WHERE ${invitations.id} = ${invitation.id} AND ${invitations.acceptedBy} = ${user.id} AND ${invitations.acceptedAt} = ${now})`;
  const actor: Principal = {
    kind: "session",
    actorId: user.id,
    organizationId: invitation.organizationId,
    workspaceId: found.defaultWorkspaceId ?? "",
    environment: keyEnvironmentFor(deps.env.ENVIRONMENT),
    workspaceRestricted: false,
    permissions: ROLE_PERMISSION_SETS[invitation.role],
  };
  try {
    await deps.db.batch([
      deps.db
        .update(invitations)
        .set({ acceptedAt: now, acceptedBy: user.id })
        .where(
          and(
            eq(invitations.id, invitation.id),
            sql`${invitations.acceptedAt} IS NULL`,
            sql`${invitations.revokedAt} IS NULL`,
            sql`${invitations.expiresAt} > ${now}`,
          ),
        ),
      ...(session ? [deps.db.insert(users).values(user), session.insert] : []),
      deps.db.insert(memberships).values({
        id: membershipId,
        organizationId: invitation.organizationId,
        userId: user.id,
        role: claimedRole as unknown as Role,
        createdAt: now,
        updatedAt: now,
      }),
      auditEntry(deps, actor, {
        action: "invitation.accepted",
        targetType: "invitation",
        targetId: invitation.id,
        metadata: { userId: user.id, email: user.email, role: invitation.role, newUser: session !== null },
      }),
      auditEntry(deps, actor, {
        action: "member.joined",
        targetType: "member",
        targetId: membershipId,
        metadata: { userId: user.id, invitationId: invitation.id, role: invitation.role },
      }),
    ]);
  } catch (err) {
    const text = String(err);
    if (text.includes("NOT NULL constraint failed: memberships.role"))
      throw new ApiError("INVALID_STATE", NOT_USABLE.accepted, { status: "accepted" });
    if (text.includes("UNIQUE") && text.includes("memberships")) {
      // Two acceptances in the same millisecond both see the other's claim as their own (the claim is matched
      // by user and time): the batch rolled back, so a link now accepted was used by the other one.
      const after = await deps.db
        .select({ acceptedAt: invitations.acceptedAt })
        .from(invitations)
        .where(eq(invitations.id, invitation.id))
        .get();
      if (after?.acceptedAt) throw new ApiError("INVALID_STATE", NOT_USABLE.accepted, { status: "accepted" });
      throw new ApiError("CONFLICT", "You are already a member of this organization.", {});
    }
    if (text.includes("UNIQUE") && text.includes("users"))
      throw new ApiError("CONFLICT", `An account for ${invitation.email} already exists: sign in, then open the invitation link again.`, {
        field: "email",
      });
    throw err;
  }
  return {
    accepted: {
      organizationId: invitation.organizationId,
      organizationName: found.organizationName,
      role: invitation.role,
      member: presentMember({
        id: membershipId,
        userId: user.id,
        email: user.email,
        name: user.name,
        role: invitation.role,
        createdAt: now,
        updatedAt: now,
      }),
      user: presentUser(user),
      newUser: session !== null,
    },
    /** The new account's session (its token goes only into the cookie), and where the console should act. */
    session: session ? { token: session.token, expiresAt: session.row.expiresAt } : null,
    workspaceId: found.defaultWorkspaceId,
  };
}
