// Members and invitations (control plane, surface internal): list members, change a role, remove a member;
// invite (a one-time link), list and revoke invitations; accept an invitation (new account or signed-in user).
// Each operation: its route, then its handler.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { guard } from "../../access";
import { isWriteMethod, refuseCrossSite, requireSameOrigin } from "../../access/same-origin";
import { sessionTokenOf, setSessionCookie } from "../../access/session";
import type { AppEnv } from "../../http/app-env";
import { ok, okList } from "../../http/envelope";
import { AUTHENTICATED_ERRORS, WRITE_ERRORS, dataResponse, errorResponses, jsonBody, listResponse, routeGroup } from "../../http/openapi";
import { ApiError } from "../../http/errors";
import { PaginationQuery, pagination } from "../../http/pagination";
import { sessionUser } from "../accounts/service";
import { acceptInvitation, createInvitation, listInvitations, revokeInvitation } from "./invitations";
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  Invitation,
  InvitationAccepted,
  InvitationWithLink,
  Member,
  MemberIdParam,
  RemovedMember,
  UpdateMemberBody,
} from "./schemas";
import { changeMemberRole, listMembers, removeMember } from "./service";

const common = routeGroup("members", "internal");
const READ = guard("members.read", { allowSession: true });
const MANAGE = guard("members.manage", { allowSession: true });
const MEMBERS = "/api/v1/organizations/current/members";
const INVITATIONS = "/api/v1/organizations/current/invitations";

export function registerMemberRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: MEMBERS,
      operationId: "members-list",
      summary: "List the organization's members (oldest first)",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of members.", Member), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listMembers(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "patch",
      path: `${MEMBERS}/{id}`,
      operationId: "members-update",
      summary: "Change a member's role (only an owner grants or takes away owner; the last owner stays)",
      ...MANAGE,
      request: { params: MemberIdParam, body: jsonBody(UpdateMemberBody) },
      responses: { 200: dataResponse("The member.", Member), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await changeMemberRole(c.get("deps"), c.get("principal"), c.req.valid("param").id, c.req.valid("json").role), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: `${MEMBERS}/{id}`,
      operationId: "members-remove",
      summary: "Remove a member from the organization (their sessions lose access at once; the last owner stays)",
      ...MANAGE,
      request: { params: MemberIdParam },
      responses: { 200: dataResponse("Removed.", RemovedMember), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await removeMember(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "post",
      path: INVITATIONS,
      operationId: "invitations-create",
      summary: "Invite someone by email with a role; answers the one-time link (shown only here, valid 7 days)",
      ...MANAGE,
      request: { body: jsonBody(CreateInvitationBody) },
      responses: {
        201: dataResponse("Created; `token` and `url` are shown only here.", InvitationWithLink),
        ...errorResponses(...WRITE_ERRORS),
      },
    }),
    async (c) => ok(c, await createInvitation(c.get("deps"), c.get("principal"), c.req.valid("json")), 201),
  );

  app.openapi(
    createRoute({
      ...common,
      method: "get",
      path: INVITATIONS,
      operationId: "invitations-list",
      summary: "List invitations, newest first (never with their links)",
      ...READ,
      request: { query: PaginationQuery },
      responses: { 200: listResponse("A page of invitations.", Invitation), ...errorResponses(...AUTHENTICATED_ERRORS) },
    }),
    async (c) => {
      const page = c.req.valid("query");
      const { rows, totalCount } = await listInvitations(c.get("deps"), c.get("principal"), page);
      return okList(c, rows, pagination(page, totalCount));
    },
  );

  app.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: `${INVITATIONS}/{id}`,
      operationId: "invitations-revoke",
      summary: "Revoke an invitation (its link stops working; idempotent)",
      ...MANAGE,
      request: { params: MemberIdParam },
      responses: { 200: dataResponse("The revoked invitation.", Invitation), ...errorResponses(...WRITE_ERRORS) },
    }),
    async (c) => ok(c, await revokeInvitation(c.get("deps"), c.get("principal"), c.req.valid("param").id), 200),
  );

  app.openapi(
    createRoute({
      ...routeGroup("auth", "internal"),
      method: "post",
      path: "/api/v1/auth/invitations/accept",
      operationId: "auth-accept-invitation",
      security: [],
      summary:
        "Accept an invitation: with the console session cookie, as that (invited) user; without, as a new account (name + password), which starts a session",
      request: { body: jsonBody(AcceptInvitationBody) },
      responses: {
        201: dataResponse("Joined; a new account also gets the `ponte_session` cookie.", InvitationAccepted),
        ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
      },
    }),
    async (c) => {
      const deps = c.get("deps");
      const token = sessionTokenOf(c);
      let signedIn = null;
      if (token) {
        // A cookie-authenticated write: same-origin, and the session must be live.
        if (isWriteMethod(c.req.method)) requireSameOrigin(c);
        const current = await sessionUser(deps, token);
        if (!current)
          throw new ApiError(
            "UNAUTHORIZED",
            "The session has expired or was ended; sign in again, or accept without the cookie as a new account.",
          );
        signedIn = current.user;
      } else refuseCrossSite(c);
      const { accepted, session } = await acceptInvitation(deps, c.req.valid("json"), signedIn);
      if (session) setSessionCookie(c, session.token);
      return ok(c, accepted, 201);
    },
  );
}
