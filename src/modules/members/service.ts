// The caller's organization's members: list, change a role, remove. Who may do what is role-rules.ts;
// that an organization always keeps an owner is checked here, inside each write's own D1 batch.
import { and, asc, count, eq, notExists, sql } from "drizzle-orm";
import type { Role } from "../../lib/permissions";
import { requirePermission, type Principal } from "../../access/principal";
import type { Deps } from "../../deps";
import { memberships, organizations, users } from "../../db/schema";
import { ApiError, notFound } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import { auditEntry } from "../audit/service";
import { assertMayChangeRole, assertMayRemove } from "./role-rules";

export interface MemberRow {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
}

export const presentMember = (row: MemberRow) => ({ ...row, object: "member" as const });

const memberColumns = {
  id: memberships.id,
  userId: memberships.userId,
  email: users.email,
  name: users.name,
  role: memberships.role,
  createdAt: memberships.createdAt,
  updatedAt: memberships.updatedAt,
};

/** Oldest member first (the founder leads the list). */
export async function listMembers(deps: Deps, principal: Principal, page: PageRequest) {
  requirePermission(principal, "members.read");
  const where = eq(memberships.organizationId, principal.organizationId);
  const [rows, [total]] = await deps.db.batch([
    deps.db
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(where)
      .orderBy(asc(memberships.createdAt), asc(memberships.id))
      .limit(page.limit)
      .offset(page.offset),
    deps.db.select({ n: count() }).from(memberships).where(where),
  ]);
  return { rows: rows.map(presentMember), totalCount: total?.n ?? 0 };
}

async function findMember(deps: Deps, principal: Principal, id: string): Promise<MemberRow> {
  const row = await deps.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, principal.organizationId)))
    .get();
  if (!row) throw notFound("member", id);
  return row;
}

const lastOwner = (organizationId: string) =>
  new ApiError("LAST_OWNER", "The organization must keep at least one owner: make another member an owner first.", { organizationId });

async function ownerCount(deps: Deps, organizationId: string): Promise<number> {
  const row = await deps.db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")))
    .get();
  return row?.n ?? 0;
}

/**
 * The last statement of a batch that may take away an owner: when no owner is left it writes NULL into a
 * NOT NULL column, which fails the statement and so rolls back the whole batch. Two owners demoting each
 * other at once therefore cannot both succeed (D1 runs each batch as one transaction, one at a time).
 */
function keepsAnOwner(deps: Deps, organizationId: string) {
  const owners = deps.db
    .select({ one: sql`1` })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
  return deps.db
    .update(organizations)
    .set({ name: sql`NULL` })
    .where(and(eq(organizations.id, organizationId), notExists(owners)));
}

/** Runs a batch guarded by keepsAnOwner, turning its abort into 409 LAST_OWNER. */
async function withOwnerKept(deps: Deps, organizationId: string, run: (guard: ReturnType<typeof keepsAnOwner>) => Promise<unknown>) {
  try {
    await run(keepsAnOwner(deps, organizationId));
  } catch (err) {
    if (/NOT NULL constraint failed: organizations\.name/.test(String(err))) throw lastOwner(organizationId);
    throw err;
  }
}

export async function changeMemberRole(deps: Deps, principal: Principal, id: string, role: Role) {
  requirePermission(principal, "members.manage");
  const member = await findMember(deps, principal, id);
  assertMayChangeRole(principal, member.role, role);
  if (member.role === role) return presentMember(member);
  if (member.role === "owner" && (await ownerCount(deps, principal.organizationId)) <= 1) throw lastOwner(principal.organizationId);
  const updatedAt = deps.now().toISOString();
  await withOwnerKept(deps, principal.organizationId, (guard) =>
    deps.db.batch([
      deps.db
        .update(memberships)
        .set({ role, updatedAt })
        .where(and(eq(memberships.id, id), eq(memberships.organizationId, principal.organizationId))),
      auditEntry(deps, principal, {
        action: "member.role_changed",
        targetType: "member",
        targetId: id,
        metadata: { userId: member.userId, from: member.role, to: role },
      }),
      guard,
    ]),
  );
  return presentMember({ ...member, role, updatedAt });
}

export async function removeMember(deps: Deps, principal: Principal, id: string) {
  requirePermission(principal, "members.manage");
  const member = await findMember(deps, principal, id);
  assertMayRemove(principal, member.role);
  if (member.role === "owner" && (await ownerCount(deps, principal.organizationId)) <= 1) throw lastOwner(principal.organizationId);
  await withOwnerKept(deps, principal.organizationId, (guard) =>
    deps.db.batch([
      deps.db.delete(memberships).where(and(eq(memberships.id, id), eq(memberships.organizationId, principal.organizationId))),
      auditEntry(deps, principal, {
        action: "member.removed",
        targetType: "member",
        targetId: id,
        metadata: { userId: member.userId, email: member.email, role: member.role },
      }),
      guard,
    ]),
  );
  return { id, object: "member" as const, deleted: true as const };
}
