// Types for the parts of demo-mirror.mjs that TypeScript tests import.
type Json = Record<string, unknown>;
export interface DemoMirror {
  customers: Json[];
  subscriptions: Json[];
  payments: Json[];
}
export type MirrorTotals = Record<"customers" | "subscriptions" | "payments", { imported: number; existing: number }>;
export declare const MIRROR_BATCH: number;
export function mirrorSql(workspaceId: string): string;
export function mirrorRecords(rows: { customers: Json[]; subscriptions: Json[]; payments: Json[]; refunds: Json[] }): DemoMirror;
export function mirrorBatches(mirror: DemoMirror, size?: number): DemoMirror[];
export function readDemoMirror(workspaceId: string): Promise<DemoMirror>;
export function pushDemoMirror(
  baseUrl: string,
  mirror: DemoMirror,
  upstreamKey: string,
  fetchFn?: (input: string, init?: RequestInit) => Promise<Response>,
): Promise<MirrorTotals>;
export function describeMirror(totals: MirrorTotals): string;
