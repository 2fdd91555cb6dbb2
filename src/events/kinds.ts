// The event kinds merchants receive (the spec's Events part), in one place.

export const EVENT_KINDS = [
  "payment.created",
  "payment.confirmed",
  "payment.received",
  "payment.overdue",
  "payment.refunded",
  "payment.canceled",
  "payment.failed",
  "payment.updated",
  "payment.restored",
  "subscription.created",
  "subscription.canceled",
  "subscription.updated",
] as const;

export type ProductEventKind = (typeof EVENT_KINDS)[number];
/** `upstream.<UPSTREAM_EVENT_NAME>` for every other upstream event; `ping` from the Test action. */
export type EventKind = ProductEventKind | `upstream.${string}` | "ping";

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value) || value === "ping" || /^upstream\.[A-Z0-9_]+$/.test(value);
}
