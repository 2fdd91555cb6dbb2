// What a receiver gets: the JSON envelope (the POST body) and the exact header set.
import type { Environment } from "../config";
import { buildSignatureHeader, SIGNATURE_HEADER } from "./signature";

export const WEBHOOK_API_VERSION = "1.0";
export const WEBHOOK_USER_AGENT = "Service-Webhooks/1.0";

export interface EventRecord {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** Serialised once per attempt from the stored event, so every attempt of a delivery sends the same bytes. */
export function envelopeBody(event: EventRecord, environment: Environment): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    environment,
    apiVersion: WEBHOOK_API_VERSION,
    data: event.data,
  });
}

/** PRODUCTION for production; SANDBOX for sandbox and local (neither moves real money). */
export const environmentHeader = (environment: Environment) => (environment === "production" ? "PRODUCTION" : "SANDBOX");

export async function deliveryHeaders(input: {
  eventType: string;
  deliveryId: string;
  environment: Environment;
  /** Current secret first, then the previous one while its overlap lasts (strings, or keys from importSigningKey). */
  secrets: readonly (string | CryptoKey)[];
  timestamp: number;
  body: string;
}): Promise<Record<string, string>> {
  return {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    "X-Service-Event": input.eventType,
    "X-Service-Delivery": input.deliveryId,
    "X-Service-Environment": environmentHeader(input.environment),
    [SIGNATURE_HEADER]: await buildSignatureHeader(input.secrets, input.timestamp, input.body),
  };
}
