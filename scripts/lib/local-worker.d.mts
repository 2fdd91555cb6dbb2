export interface LocalWorker {
  baseUrl: string;
  apiKey: string;
  organizationId: string;
  workspaceId: string;
  demoHistory?: { customers: number; payments: number; expenses: number; from: string; to: string };
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startLocalWorker(options?: { demoHistory?: boolean; timeoutMs?: number }): Promise<LocalWorker>;
