// Types for the parts of listen.mjs that test/unit/listen.test.ts imports.
export declare const SIGNATURE_HEADER: string;
export declare const EVENT_KINDS: string[];
export declare const USAGE: string;
export declare class UsageError extends Error {}
export interface ListenOptions {
  forwardTo: string;
  api: string;
  key: string;
  events: string[];
  transport: "http" | "ws";
  organizationId?: string;
  workspaceId?: string;
}
export declare function parseListenArgs(argv: string[], env?: Record<string, string | undefined>): ListenOptions;
export declare function expandEventPatterns(patterns: string[]): string[];
export declare function matchesPattern(kind: string, pattern: string): boolean;
export declare function signatureHeader(secret: string, rawBody: string | Uint8Array, timestamp?: number): string;
export declare function signatureValid(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | undefined | null,
  now?: number,
): boolean;
export interface ForwardResult {
  kind: string;
  eventId: string;
  status: number;
  ms: number;
  error?: string;
}
export declare function forwardDelivery(input: {
  rawBody: string | Uint8Array;
  headers: Record<string, string | string[] | undefined> | Headers;
  secret: string;
  forwardTo: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}): Promise<ForwardResult>;
export declare function formatDeliveryLine(r: ForwardResult, at?: Date): string;
export declare function upstreamStatus(r: ForwardResult): number;
export interface ListenSession {
  endpointId: string;
  secret: string;
  receiverUrl: string;
  eventKinds: string[];
  close(): Promise<void>;
}
export declare function startHttpListen(
  options: Omit<ListenOptions, "transport"> & { log?: (line: string) => void; fetchImpl?: typeof fetch },
): Promise<ListenSession>;
