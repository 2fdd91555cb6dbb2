// How the rest of the worker reaches a ListenDO, without importing the class (and so `cloudflare:workers`): the
// delivery path's fetcher for a ponte-listen:// endpoint, the stub the GET /api/v1/listen upgrade is handed to
// (with the credential that opened it), and the call that closes the streams a revoked key opened.
import type { Env } from "../config";
import type { HeldCredential } from "../access/credential-recheck";
import type { Permission } from "../lib/permissions";
import type { Fetcher } from "./deliver";

/** What attaching to a stream needs, at the upgrade and at every re-check after it. */
export const LISTEN_PERMISSION: Permission = "webhook_endpoints.manage";
export const DELIVER_PATH = "/deliver";
export const CLOSE_PATH = "/close";
/** Set by the listen route on the upgrade it hands over (any client-sent value is overwritten). */
export const LISTEN_KEY_HEADER = "x-ponte-listen-api-key-id";
export const LISTEN_WORKSPACE_HEADER = "x-ponte-listen-workspace-id";
/** The close code a stream gets when the credential that opened it stops holding (revoked, rotated, …). */
export const CREDENTIAL_CLOSE_CODE = 4001;
/** The hibernation-API tag of the sockets an API key opened (ctx.getWebSockets(tag)). */
export const keyTag = (apiKeyId: string) => `key:${apiKeyId}`;

function stubOf(env: Env, endpointId: string) {
  return env.LISTEN_DO.get(env.LISTEN_DO.idFromName(endpointId));
}

/** How the delivery path reaches a listen endpoint: the attempt's POST goes to its ListenDO, not the network. */
export function listenFetcher(env: Env, endpointId: string): Fetcher {
  const stub = stubOf(env, endpointId);
  return (_url, init) => stub.fetch(`https://listen.do${DELIVER_PATH}`, { method: "POST", headers: init.headers, body: init.body });
}

/** Hands a `GET /api/v1/listen` upgrade to the endpoint's Durable Object, naming the credential that opens it. */
export function attachListenStream(env: Env, endpointId: string, upgrade: Request, held: Omit<HeldCredential, "permission">) {
  const headers = new Headers(upgrade.headers);
  headers.set(LISTEN_KEY_HEADER, held.apiKeyId);
  headers.set(LISTEN_WORKSPACE_HEADER, held.workspaceId);
  return stubOf(env, endpointId).fetch(new Request(upgrade, { headers }));
}

/** Closes, on these endpoints' streams, every socket the API key opened; resolves to how many were closed. */
export async function closeKeyStreams(env: Env, endpointIds: readonly string[], apiKeyId: string, reason: string): Promise<number> {
  const closed = await Promise.allSettled(
    endpointIds.map(async (id) => {
      const res = await stubOf(env, id).fetch(`https://listen.do${CLOSE_PATH}`, {
        method: "POST",
        body: JSON.stringify({ apiKeyId, reason }),
      });
      return ((await res.json()) as { closed: number }).closed;
    }),
  );
  // A failed call is left to the stream's own re-check before every delivery (src/events/listen-do.ts).
  return closed.reduce((n, r) => n + (r.status === "fulfilled" ? r.value : 0), 0);
}
