// How the rest of the worker reaches a ListenDO, without importing the class (and so `cloudflare:workers`): the
// delivery path's fetcher for a ponte-listen:// endpoint, and the stub the GET /api/v1/listen upgrade is handed to.
import type { Env } from "../config";
import type { Fetcher } from "./deliver";

export const DELIVER_PATH = "/deliver";

/** How the delivery path reaches a listen endpoint: the attempt's POST goes to its ListenDO, not the network. */
export function listenFetcher(env: Env, endpointId: string): Fetcher {
  const stub = env.LISTEN_DO.get(env.LISTEN_DO.idFromName(endpointId));
  return (_url, init) => stub.fetch(`https://listen.do${DELIVER_PATH}`, { method: "POST", headers: init.headers, body: init.body });
}

/** The Durable Object a `GET /api/v1/listen` upgrade is handed to. */
export function listenStub(env: Env, endpointId: string) {
  return env.LISTEN_DO.get(env.LISTEN_DO.idFromName(endpointId));
}
