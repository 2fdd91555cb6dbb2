// The events queue consumer: the safety net behind the committing request's own hand-off (outbox.ts)
// and the sweeper's re-enqueue. A batch's events are fanned out together (src/events/fan-out.ts) and
// acked together; a message that is not an event is dropped with a log line.
import type { Env } from "../config";
import { backgroundDeps, type Deps } from "../deps";
import type { EventMessage } from "./outbox";
import { deliverEvents } from "./fan-out";
import { logLine, summarizeError } from "../lib/log";

/** One message's event: fan out and hand off (the tests' and the single-message path). */
export async function handleEventMessage(deps: Deps, body: unknown): Promise<void> {
  if (!isEventMessage(body)) {
    dropMalformed(body);
    return;
  }
  await deliverEvents(deps, [body.eventId]);
}

function isEventMessage(body: unknown): body is EventMessage {
  return typeof body === "object" && body !== null && typeof (body as EventMessage).eventId === "string";
}

function dropMalformed(body: unknown) {
  // The body is not logged (a malformed message may hold anything); its shape is enough to find the producer.
  const shape = typeof body === "object" && body !== null ? Object.keys(body).slice(0, 10) : typeof body;
  logLine("error", "dropping malformed events-queue message", { shape });
}

/**
 * A batch of messages is fanned out together (two D1 round trips for all of them) and each endpoint
 * gets one hand-off. If that fails, the messages are taken one by one, each acked or retried on its
 * own, so one unreadable event never holds back the others (fan-out adds nothing twice).
 */
export async function consumeEventBatch(batch: MessageBatch<unknown>, env: Env, ctx?: ExecutionContext): Promise<void> {
  const deps = backgroundDeps(env, ctx ? (p) => ctx.waitUntil(p) : undefined);
  const valid = batch.messages.filter((msg) => {
    if (isEventMessage(msg.body)) return true;
    dropMalformed(msg.body);
    msg.ack();
    return false;
  });
  if (valid.length === 0) return;
  try {
    await deliverEvents(
      deps,
      valid.map((msg) => (msg.body as EventMessage).eventId),
    );
    for (const msg of valid) msg.ack();
    return;
  } catch {
    // fall through: one by one
  }
  await Promise.all(
    valid.map(async (msg) => {
      try {
        await handleEventMessage(deps, msg.body);
        msg.ack();
      } catch (err) {
        logLine("error", "event fan-out failed; message will be retried", {
          messageId: msg.id,
          attempts: msg.attempts,
          error: summarizeError(err),
        });
        msg.retry({ delaySeconds: Math.min(60, 2 ** msg.attempts) });
      }
    }),
  );
}
