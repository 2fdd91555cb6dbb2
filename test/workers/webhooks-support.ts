// Webhook test support: outbound receivers (a spy on the runtime's fetch, which the worker, the queue
// consumer and EndpointDO all reach through the late-bound `globalFetcher`), events, and the consumer.
import { createExecutionContext, createMessageBatch, env, getQueueResult, runInDurableObject } from "cloudflare:test";
import { vi } from "vitest";
import { backgroundDeps } from "../../src/deps";
import { orgLogs } from "../../src/db/org-logs/stub";
import type { EndpointDO } from "../../src/events/endpoint-do";
import { endpointStub as endpointStubOf } from "../../src/events/endpoint-stub";
import type { EventKind } from "../../src/events/kinds";
import { recordEvent } from "../../src/events/outbox";
import worker from "../../src/index";
import { call, type TestTenant } from "./support";
import type { Reply, WebhookEndpointWithSecret } from "./bodies";

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
  redirect: string | undefined;
  at: number;
}

export type ReceiverReply = (req: Received) => Response | Promise<Response>;

/** Replace outbound fetch; every request is recorded and answered by `reply` (default 200). */
export function mockReceiver(reply: ReceiverReply = () => new Response("ok")) {
  const received: Received[] = [];
  const state = { reply };
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input as RequestInfo, init);
    const entry: Received = {
      url: req.url,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
      redirect: init?.redirect,
      at: Date.now(),
    };
    received.push(entry);
    return state.reply(entry);
  });
  return { received, spy, answer: (r: ReceiverReply) => (state.reply = r) };
}

/** Independent HMAC-SHA256 hex (not via src/events/signature.ts). */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  return [...sig].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function createEndpoint(tenant: TestTenant, body: Record<string, unknown> = {}) {
  const res = await call<Reply<WebhookEndpointWithSecret>>("POST", "/api/v1/webhook-endpoints", {
    key: tenant.key,
    body: { url: "https://hooks.merchant.com.br/ponte", eventKinds: ["*"], ...body },
  });
  if (res.status !== 201) throw new Error(`endpoint create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Record a committed event (as billing will), without enqueueing it. */
export async function insertEvent(
  tenant: TestTenant,
  type: EventKind = "payment.received",
  data: Record<string, unknown> = { id: crypto.randomUUID(), value: "129.90" },
  createdAt?: Date,
) {
  const deps = backgroundDeps(env);
  const { event, statement } = recordEvent(createdAt ? { ...deps, now: () => createdAt } : deps, tenant, type, data);
  await deps.db.batch([statement]);
  return event;
}

let messageSeq = 0;
/** Run the worker's queue() handler over these message bodies; returns the acks and retries. */
export async function consume(bodies: unknown[]) {
  const messages = bodies.map((body) => ({ id: `msg-${++messageSeq}`, timestamp: new Date(), attempts: 1, body }));
  const batch = createMessageBatch("ponte-local-events", messages);
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch<unknown>, env, ctx);
  const result = await getQueueResult(batch, ctx);
  return { ids: messages.map((m) => m.id), result };
}

export const endpointStub = (endpointId: string) => endpointStubOf(env, endpointId);

export async function alarmOf(endpointId: string): Promise<number | null> {
  return runInDurableObject(endpointStub(endpointId), (_: EndpointDO, state) => state.storage.getAlarm());
}

/** A webhook_deliveries row as stored (snake_case columns). */
export interface StoredDelivery {
  id: string;
  organization_id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  scheduled_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error_kind: string | null;
  created_at: string;
  updated_at: string;
}

/** A webhook attempt as its organization's log store (OrgLogDO) keeps it, in the snake_case of its columns. */
export interface StoredAttempt {
  id: string;
  delivery_id: string;
  trigger: string;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error_kind: string | null;
  error_message: string | null;
  response_excerpt: string | null;
}

export async function deliveriesOf(endpointId: string) {
  const { results } = await env.DB.prepare("SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at, id")
    .bind(endpointId)
    .all<StoredDelivery>();
  return results;
}

/** A delivery's attempts, oldest first, read from its organization's log store. */
export async function attemptsOf(deliveryId: string): Promise<StoredAttempt[]> {
  const delivery = await env.DB.prepare("SELECT organization_id FROM webhook_deliveries WHERE id = ?")
    .bind(deliveryId)
    .first<{ organization_id: string }>();
  if (!delivery) return [];
  const attempts = await orgLogs(env, delivery.organization_id).attemptsOf(deliveryId);
  return attempts.map((a) => ({
    id: a.id,
    delivery_id: a.deliveryId,
    trigger: a.trigger,
    attempted_at: a.attemptedAt,
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    error_kind: a.errorKind,
    error_message: a.errorMessage,
    response_excerpt: a.responseExcerpt,
  }));
}
