// Members and invitations of the caller's organization: request and response shapes.
import { z } from "@hono/zod-openapi";
import { ROLES } from "../../lib/permissions";
import { Email, Password, User } from "../accounts/schemas";

export const RoleName = z.enum(ROLES as ["owner", "admin", "developer", "viewer"]).openapi({ example: "developer" });

export const Member = z
  .object({
    id: z.uuid().openapi({ description: "The membership id (what `/members/{id}` takes)." }),
    object: z.literal("member"),
    userId: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: RoleName,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Member");

export const RemovedMember = z.object({ id: z.uuid(), object: z.literal("member"), deleted: z.literal(true) }).openapi("RemovedMember");

export const UpdateMemberBody = z.strictObject({ role: RoleName }).openapi("UpdateMember");

export const Invitation = z
  .object({
    id: z.uuid(),
    object: z.literal("invitation"),
    email: z.string(),
    role: RoleName,
    status: z.enum(["pending", "accepted", "revoked", "expired"]),
    invitedBy: z.string().openapi({ description: "The API key id or console user id that invited." }),
    createdAt: z.string(),
    expiresAt: z.string(),
    acceptedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi("Invitation");

export const InvitationWithLink = Invitation.extend({
  token: z.string().openapi({ description: "The one-time token (for `POST /api/v1/auth/invitations/accept`). Shown only here." }),
  url: z.string().openapi({ description: "The console link that accepts the invitation. Shown only here; send it to the invitee." }),
}).openapi("InvitationWithLink");

export const CreateInvitationBody = z.strictObject({ email: Email, role: RoleName }).openapi("CreateInvitation");

export const InvitationToken = z.string().min(1).max(200);

export const AcceptInvitationBody = z
  .strictObject({
    token: InvitationToken,
    name: z.string().trim().min(1).max(100).optional().openapi({ description: "For a new account (no session cookie sent)." }),
    password: Password.optional().openapi({ description: "For a new account (no session cookie sent)." }),
  })
  .openapi("AcceptInvitation");

export const InvitationAccepted = z
  .object({
    organizationId: z.uuid(),
    organizationName: z.string(),
    role: RoleName,
    member: Member,
    user: User,
    newUser: z.boolean().openapi({ description: "True when the account was created by this acceptance (a session cookie is then set)." }),
  })
  .openapi("InvitationAccepted");

export const MemberIdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
