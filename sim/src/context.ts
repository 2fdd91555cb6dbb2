// What a route handler sees: the account, the parsed request, and the events it emits.
import type { CatalogueOperation } from "../../src/compat/catalogue";
import type { Json } from "./http";
import type { Account } from "./state";

export interface SimEnv {
  /** Ponte, when bound: outbound webhooks go through this service binding instead of the network. */
  PONTE?: Fetcher;
  /** "sync" (default) delivers webhooks before answering; anything else uses ctx.waitUntil. */
  WEBHOOK_DELIVERY?: string;
  PIX_MERCHANT_NAME?: string;
  PIX_MERCHANT_CITY?: string;
}

export type EntityKey = "payment" | "subscription" | "checkout";

export interface PendingEvent {
  event: string;
  entityKey: EntityKey;
  entity: Json;
}

export interface SimContext {
  account: Account;
  env: SimEnv;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  /** Parsed multipart body, for upload operations. */
  form?: FormData;
  /** Origin of the simulator, for invoice/bank slip URLs. */
  origin: string;
  events: PendingEvent[];
  /** The catalogue operation being answered (absent for control actions). */
  operation?: CatalogueOperation;
}

export type Handler = (ctx: SimContext) => Json | Response | Promise<Json | Response>;

/** Queues an outbound webhook; the entity is snapshotted now so later changes do not leak in. */
export function emit(ctx: SimContext, event: string, entityKey: EntityKey, entity: Json): void {
  ctx.events.push({ event, entityKey, entity: structuredClone(entity) });
}

/** The JSON body as an object (empty object when absent). */
export function bodyObject(ctx: SimContext): Json {
  const b = ctx.body;
  return typeof b === "object" && b !== null && !Array.isArray(b) ? (b as Json) : {};
}
