// Console users, their sessions and organization memberships, and sign-in/sign-up attempt counters (throttle).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
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
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** SHA-256 hex of the cookie's token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    /** Fixed lifetime from sign-in (no sliding), so reading a session never writes. */
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("sessions_token_idx").on(t.tokenHash),
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const memberships = sqliteTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("memberships_org_user_idx").on(t.organizationId, t.userId), index("memberships_user_idx").on(t.userId, t.createdAt)],
);

/** Sign-in and sign-up attempt counters (fixed windows), counted atomically before any password is checked. */
export const authAttempts = sqliteTable(
  "auth_attempts",
  {
    /** What is counted: `login` per (email, client network), `login_network` and `signup_network` per client network. */
    scope: text("scope", { enum: ["login", "login_network", "signup_network"] }).notNull(),
    subject: text("subject").notNull(),
    count: integer("count").notNull(),
    /** Unix seconds at which this window ends and the count starts again from zero. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.subject] }), index("auth_attempts_expires_idx").on(t.expiresAt)],
);
