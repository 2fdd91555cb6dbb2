// The Bearer dialect's side of an upstream answer or event: the ids it names are looked up once, then
// it is said in Ponte's vocabulary (src/compat/bearer-vocabulary.ts, loaded on first use: it carries
// the upstream shapes). The Asaas dialect never comes here: it answers what the upstream sent.
import type { Deps } from "../deps";
import type { Tenant } from "../lib/tenant";
import type { BearerAnswer } from "./bearer-vocabulary";
import { nativeIdsOf } from "./upstream-ids";
import { loadOnce } from "../lib/load-once";

const vocabulary = loadOnce(() => import("./bearer-vocabulary"));

/** A passthrough operation's upstream answer for a Bearer caller: data (and a list's pagination) in Ponte's conventions. */
export async function bearerPassthroughAnswer(deps: Deps, tenant: Tenant, operationId: string, body: unknown): Promise<BearerAnswer> {
  const { bearerAnswer, upstreamIdsOfAnswer } = await vocabulary();
  return bearerAnswer(operationId, body, await nativeIdsOf(deps, tenant, upstreamIdsOfAnswer(operationId, body)));
}

/** An upstream webhook envelope as the data of the `upstream.*` event Ponte re-emits. */
export async function bearerEventData(deps: Deps, tenant: Tenant, envelope: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { bearerEvent, upstreamIdsOfEvent } = await vocabulary();
  return bearerEvent(envelope, await nativeIdsOf(deps, tenant, upstreamIdsOfEvent(envelope)));
}
