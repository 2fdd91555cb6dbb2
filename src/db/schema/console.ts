// Console users, their sessions and organization memberships, and recent failed logins (rate limit).
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./tenancy";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased and trimmed; the login name. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** `pbkdf2_sha256$<iterations>$<base64 salt>$<base64 hash>`: the iteration count travels with the hash so it can be raised later. */
    passwordHash: text("password_hash").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_idx").on(t.email)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    /** SHA-256 hex of the cookie's token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    /** Fixed lifetime from sign-in (no sliding), so reading a session never writes. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [uniqueIndex("sessions_token_idx").on(t.tokenHash), index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const memberships = sqliteTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    userId: text("user_id").notNull().references(() => users.id),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("memberships_org_user_idx").on(t.organizationId, t.userId), index("memberships_user_idx").on(t.userId, t.createdAt)],
);

export const loginFailures = sqliteTable(
  "login_failures",
  {
    id: text("id").primaryKey(),
    /** What the failure counts against: the email tried, or the client IP. */
    scope: text("scope", { enum: ["email", "ip"] }).notNull(),
    subject: text("subject").notNull(),
    failedAt: text("failed_at").notNull(),
  },
  (t) => [index("login_failures_subject_idx").on(t.scope, t.subject, t.failedAt), index("login_failures_failed_at_idx").on(t.failedAt)],
);
