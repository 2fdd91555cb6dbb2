// `npm run listen --transport ws`: attaching the CLI's WebSocket to a `ponte-listen://` endpoint of the caller's
// workspace, and closing the streams an API key opened when it is revoked or rotated. The endpoint lookup is
// tenant-scoped, so a key can only ever listen to its own workspace's events.
import { and, eq, like } from "drizzle-orm";
import { type Principal, requirePermission } from "../../access/principal";
import { webhookEndpoints } from "../../db/schema";
import type { Deps } from "../../deps";
import { attachListenStream, closeKeyStreams, LISTEN_PERMISSION } from "../../events/listen-stub";
import { ApiError } from "../../http/errors";
import { listenSessionId } from "../../lib/url-policy";
import { findEndpoint } from "../webhook-endpoints/service";

/** Hands the upgrade to the endpoint's ListenDO; 404 for another tenant's endpoint, 409 for an ordinary one. */
export async function attachListen(deps: Deps, principal: Principal, endpointId: string, upgrade: Request) {
  requirePermission(principal, LISTEN_PERMISSION);
  const endpoint = await findEndpoint(deps, principal, endpointId);
  if (listenSessionId(endpoint.url) === null)
    throw new ApiError("INVALID_STATE", "Only an endpoint whose url is ponte-listen://<session id> can be listened to.", {
      id: endpoint.id,
      url: endpoint.url,
    });
  if (upgrade.headers.get("Upgrade")?.toLowerCase() !== "websocket")
    throw new ApiError("BAD_REQUEST", "This operation is a WebSocket: send Upgrade: websocket.");
  if (principal.kind !== "api_key") throw new ApiError("FORBIDDEN", "A listen stream is opened with an API key.");
  return attachListenStream(deps.env, endpoint.id, upgrade, { apiKeyId: principal.actorId, workspaceId: principal.workspaceId });
}

/** Every ponte-listen:// URL (listenSessionId decides which are well-formed; only those are ever stored). */
const LISTEN_URL_PATTERN = "ponte-listen://%";

/**
 * After a key is revoked or rotated: closes (code 4001) every listen stream it opened in its organization. A
 * stream whose close call fails still stops at its next delivery, which re-checks the key first.
 */
export async function closeListenStreamsOf(deps: Deps, key: { id: string; organizationId: string }, reason: string) {
  const endpoints = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, key.organizationId), like(webhookEndpoints.url, LISTEN_URL_PATTERN)))
    .all();
  if (endpoints.length === 0) return 0;
  return closeKeyStreams(
    deps.env,
    endpoints.map((e) => e.id),
    key.id,
    reason,
  );
}
