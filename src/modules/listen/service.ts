// `npm run listen --transport ws`: attaching the CLI's WebSocket to a `ponte-listen://` endpoint of the caller's
// workspace. The endpoint lookup is tenant-scoped, so a key can only ever listen to its own workspace's events.
import { type Principal, requirePermission } from "../../access/principal";
import type { Deps } from "../../deps";
import { listenStub } from "../../events/listen-stub";
import { ApiError } from "../../http/errors";
import { listenSessionId } from "../../lib/url-policy";
import { findEndpoint } from "../webhook-endpoints/service";

/** The ListenDO that holds this endpoint's stream; 404 for another tenant's endpoint, 409 for an ordinary one. */
export async function listenSession(deps: Deps, principal: Principal, endpointId: string) {
  requirePermission(principal, "webhook_endpoints.manage");
  const endpoint = await findEndpoint(deps, principal, endpointId);
  if (listenSessionId(endpoint.url) === null)
    throw new ApiError("INVALID_STATE", "Only an endpoint whose url is ponte-listen://<session id> can be listened to.", {
      id: endpoint.id,
      url: endpoint.url,
    });
  return listenStub(deps.env, endpoint.id);
}
