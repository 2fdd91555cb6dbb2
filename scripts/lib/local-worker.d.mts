export interface LocalWorker {
  baseUrl: string;
  apiKey: string;
  organizationId: string;
  workspaceId: string;
  demoHistory?: { customers: number; payments: number; expenses: number; from: string; to: string };
  /** The demo organization's owner (local only; a password generated per seed run). */
  consoleSignIn?: { email: string; password: string };
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startLocalWorker(options?: { demoHistory?: boolean; timeoutMs?: number }): Promise<LocalWorker>;
