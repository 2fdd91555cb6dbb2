// Console accounts: sign-up (user + organization + default workspace + owner membership + session),
// sign-in, sign-out, password change, and "who am I".
import { and, asc, eq, ne } from "drizzle-orm";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../access/password";
import { ROLE_PERMISSION_SETS, type Role } from "../../lib/permissions";
import type { Principal } from "../../access/principal";
import { hashSessionToken, newSessionToken, type SessionPrincipal } from "../../access/session";
import { keyEnvironmentFor, LIMITS } from "../../config";
import type { Deps } from "../../deps";
import { newId } from "../../lib/ids";
import { deleteExpiredRows } from "../../db/retention";
import { costCategories, memberships, organizations, sessions, users, workspaces } from "../../db/schema";
import { defaultCostCategoryRows } from "../cost-categories/service";
import { ApiError } from "../../http/errors";
import { auditEntry } from "../audit/service";
import { countLoginAttempt, countSignupAttempt, forgiveLoginAttempt } from "./throttle";

type UserRow = typeof users.$inferSelect;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const presentUser = (row: UserRow) => ({
  id: row.id,
  object: "user" as const,
  email: row.email,
  name: row.name,
  createdAt: row.createdAt,
});

/** A new session row and the token that only the cookie will hold. */
export async function openSession(deps: Deps, userId: string) {
  const token = newSessionToken();
  const now = deps.now();
  const row = {
    id: newId(),
    userId,
    tokenHash: await hashSessionToken(token),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + LIMITS.sessionTtlSeconds * 1000).toISOString(),
  };
  return { token, row, insert: deps.db.insert(sessions).values(row) };
}

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
  organizationName: string;
}

export async function signUp(deps: Deps, input: SignUpInput, clientIp: string) {
  await countSignupAttempt(deps, clientIp);
  const email = normalizeEmail(input.email);
  const existing = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (existing) throw new ApiError("CONFLICT", "An account with this email already exists; sign in instead.", { field: "email" });
  const now = deps.now().toISOString();
  const user: UserRow = {
    id: newId(),
    email,
    name: input.name,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    updatedAt: now,
  };
  const organization = { id: newId(), name: input.organizationName, defaultWorkspaceId: "", createdAt: now, updatedAt: now };
  const workspace = { id: newId(), organizationId: organization.id, name: "Default", archivedAt: null, createdAt: now, updatedAt: now };
  organization.defaultWorkspaceId = workspace.id;
  const membership = {
    id: newId(),
    organizationId: organization.id,
    userId: user.id,
    role: "owner" as const,
    createdAt: now,
    updatedAt: now,
  };
  const session = await openSession(deps, user.id);
  const actor: Principal = {
    kind: "session",
    actorId: user.id,
    organizationId: organization.id,
    workspaceId: workspace.id,
    environment: keyEnvironmentFor(deps.env.ENVIRONMENT),
    workspaceRestricted: false,
    permissions: ROLE_PERMISSION_SETS.owner,
  };
  try {
    await deps.db.batch([
      deps.db.insert(users).values(user),
      deps.db.insert(organizations).values(organization),
      deps.db.insert(workspaces).values(workspace),
      deps.db.insert(costCategories).values(defaultCostCategoryRows({ organizationId: organization.id, workspaceId: workspace.id }, now)),
      deps.db.insert(memberships).values(membership),
      session.insert,
      auditEntry(deps, actor, {
        action: "organization.created",
        targetType: "organization",
        targetId: organization.id,
        metadata: { name: organization.name },
      }),
    ]);
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides, and nothing of the loser is kept.
    if (String(err).includes("UNIQUE"))
      throw new ApiError("CONFLICT", "An account with this email already exists; sign in instead.", { field: "email" });
    throw err;
  }
  return {
    user: presentUser(user),
    organizationId: organization.id,
    workspaceId: workspace.id,
    token: session.token,
    expiresAt: session.row.expiresAt,
  };
}

const WRONG_CREDENTIALS = "Email or password is incorrect.";

export async function logIn(deps: Deps, input: { email: string; password: string }, clientIp: string) {
  const email = normalizeEmail(input.email);
  await countLoginAttempt(deps, email, clientIp); // counted before the password is checked: a burst cannot outrun it
  const user = await deps.db.select().from(users).where(eq(users.email, email)).get();
  // An unknown email costs the same PBKDF2 work as a wrong password, and gets the same answer.
  const valid = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid) throw new ApiError("UNAUTHORIZED", WRONG_CREDENTIALS);
  const session = await openSession(deps, user.id);
  await session.insert;
  await deps.env.DB.batch(forgiveLoginAttempt(deps, email, clientIp));
  return { user: presentUser(user), token: session.token, expiresAt: session.row.expiresAt };
}

export async function logOut(deps: Deps, token: string): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.tokenHash, await hashSessionToken(token)));
}

/** Retention: deletes up to LIMITS.retentionBatchRows sessions past their expiry (they no longer sign anyone in). */
export const pruneExpiredSessions = (deps: Deps) =>
  deleteExpiredRows(deps.env.DB, { table: "sessions", key: "id", column: "expires_at" }, deps.now().toISOString());

export interface SessionUser {
  sessionId: string;
  user: UserRow;
}

/** The live session behind a cookie token, with its user; null when expired, ended or unknown. */
export async function sessionUser(deps: Deps, token: string): Promise<SessionUser | null> {
  const row = await deps.db
    .select({ sessionId: sessions.id, expiresAt: sessions.expiresAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, await hashSessionToken(token)))
    .get();
  if (!row || row.expiresAt <= deps.now().toISOString()) return null;
  return { sessionId: row.sessionId, user: row.user };
}

/** Verifies the current password, stores the new hash, ends every session of the user and opens a fresh one. */
export async function changePassword(
  deps: Deps,
  current: SessionUser,
  input: { currentPassword: string; newPassword: string },
  clientIp: string,
) {
  // A stolen session must not become an unlimited password oracle: the sign-in throttle applies here too.
  await countLoginAttempt(deps, current.user.email, clientIp);
  if (!(await verifyPassword(input.currentPassword, current.user.passwordHash))) {
    throw new ApiError("FORBIDDEN", "The current password is incorrect.", { field: "currentPassword" });
  }
  const now = deps.now().toISOString();
  const session = await openSession(deps, current.user.id);
  await deps.db.batch([
    deps.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: now })
      .where(eq(users.id, current.user.id)),
    deps.db.delete(sessions).where(and(eq(sessions.userId, current.user.id), ne(sessions.id, session.row.id))),
    session.insert,
  ]);
  return { token: session.token, expiresAt: session.row.expiresAt };
}

export interface MembershipView {
  organizationId: string;
  organizationName: string;
  role: Role;
  workspaces: { id: string; name: string; isDefault: boolean; archived: boolean }[];
}

/** The user's organizations (oldest membership first) with their workspaces, for `me` and the console switcher. */
export async function listMemberships(deps: Deps, userId: string): Promise<MembershipView[]> {
  const rows = await deps.db
    .select({
      organizationId: memberships.organizationId,
      role: memberships.role,
      organizationName: organizations.name,
      defaultWorkspaceId: organizations.defaultWorkspaceId,
      workspace: workspaces,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(workspaces, eq(workspaces.organizationId, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.organizationId), asc(workspaces.createdAt));
  const byOrg = new Map<string, MembershipView>();
  for (const r of rows) {
    let view = byOrg.get(r.organizationId);
    if (!view) {
      view = { organizationId: r.organizationId, organizationName: r.organizationName, role: r.role, workspaces: [] };
      byOrg.set(r.organizationId, view);
    }
    if (r.workspace)
      view.workspaces.push({
        id: r.workspace.id,
        name: r.workspace.name,
        isDefault: r.workspace.id === r.defaultWorkspaceId,
        archived: r.workspace.archivedAt !== null,
      });
  }
  return [...byOrg.values()];
}

export function describeCurrent(principal: SessionPrincipal | null) {
  if (!principal) return null;
  return {
    organizationId: principal.organizationId,
    workspaceId: principal.workspaceId,
    role: principal.role,
    permissions: [...principal.permissions].sort(),
  };
}
