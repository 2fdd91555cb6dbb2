// Invitations to join an organization: a one-time link whose token is stored only as its SHA-256.
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./tenancy";

export const invitations = sqliteTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    /** Lower-cased and trimmed; the account that accepts must have (or be created with) this email. */
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "developer", "viewer"] }).notNull(),
    /** SHA-256 hex of the link's token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    /** The API key id or console user id that invited. */
    invitedBy: text("invited_by").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token_idx").on(t.tokenHash), index("invitations_org_idx").on(t.organizationId, t.createdAt)],
);
