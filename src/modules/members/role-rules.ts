// Who may give, change or take away which role: the one place these rules live. Pure (no I/O).
// - Writes to membership need an organization-wide credential (a workspace-bound key cannot reshape the organization).
// - Only an owner signed in to the console grants the owner role or changes/removes an owner; API keys never do.
// - Assigning a role, touching a member who holds one, or revoking an invitation to one, requires holding every
//   permission of that role (the same rule as for API keys: no one hands out, or takes away, more than they have).
// - The organization always keeps an owner (enforced in service.ts, inside the write's own batch).
import { ROLE_PERMISSIONS, type Permission, type Role } from "../../lib/permissions";
import type { Principal } from "../../access/principal";
import type { SessionPrincipal } from "../../access/session";
import { ApiError } from "../../http/errors";

/** The console role behind a principal; null for an API key. */
export const roleOf = (principal: Principal): Role | null =>
  principal.kind === "session" ? ((principal as SessionPrincipal).role ?? null) : null;

export function assertOrganizationWide(principal: Principal): void {
  if (principal.workspaceRestricted) {
    throw new ApiError(
      "FORBIDDEN",
      "A key bound to one workspace cannot manage the organization's members; use an organization-wide key or the console.",
      {
        workspaceId: principal.workspaceId,
      },
    );
  }
}

function assertOwnerActs(principal: Principal, what: string): void {
  if (principal.kind === "api_key") {
    throw new ApiError("FORBIDDEN", `API keys cannot ${what}; an owner must do it in the console.`, { requiredRole: "owner" });
  }
  if (roleOf(principal) !== "owner") throw new ApiError("FORBIDDEN", `Only an owner can ${what}.`, { requiredRole: "owner" });
}

export function missingPermissionsFor(principal: Principal, role: Role): Permission[] {
  return ROLE_PERMISSIONS[role].filter((p) => !principal.permissions.has(p));
}

function assertHoldsRole(principal: Principal, role: Role, verb: string): void {
  const missing = missingPermissionsFor(principal, role);
  if (missing.length > 0) {
    throw new ApiError("FORBIDDEN", `You cannot ${verb} the '${role}' role: it has permissions you do not hold (${missing.join(", ")}).`, {
      role,
      missingPermissions: missing,
    });
  }
}

/** Inviting someone as `role`. */
export function assertMayGrant(principal: Principal, role: Role): void {
  assertOrganizationWide(principal);
  if (role === "owner") assertOwnerActs(principal, "grant the owner role");
  assertHoldsRole(principal, role, "grant");
}

/** Changing a member's role from `from` to `to`. */
export function assertMayChangeRole(principal: Principal, from: Role, to: Role): void {
  assertOrganizationWide(principal);
  if (from === "owner") assertOwnerActs(principal, "change an owner's role");
  if (to === "owner") assertOwnerActs(principal, "grant the owner role");
  assertHoldsRole(principal, to, "grant");
  assertHoldsRole(principal, from, "change a member holding");
}

/** Removing a member who holds `role`. */
export function assertMayRemove(principal: Principal, role: Role): void {
  assertOrganizationWide(principal);
  if (role === "owner") assertOwnerActs(principal, "remove an owner");
  assertHoldsRole(principal, role, "remove a member holding");
}

/** Revoking an invitation to `role`: the same rule as granting it (an invitation is a grant not yet accepted). */
export function assertMayRevokeInvitation(principal: Principal, role: Role): void {
  assertOrganizationWide(principal);
  if (role === "owner") assertOwnerActs(principal, "revoke an invitation to the owner role");
  assertHoldsRole(principal, role, "revoke an invitation to");
}
