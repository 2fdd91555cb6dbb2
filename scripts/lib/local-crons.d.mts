export function cronsOf(environment: "local" | "sandbox" | "production", tomlText?: string): string[];
export interface CronRun {
  cron: string;
  at: Date;
  status?: number;
  error?: unknown;
}
export function startCrons(
  baseUrl: string,
  crons: string[],
  options?: {
    fetchImpl?: (url: string) => Promise<{ status: number; arrayBuffer?: () => Promise<ArrayBuffer> }>;
    now?: () => Date;
    setTimer?: (fn: () => void, ms: number) => unknown;
    clearTimer?: (t: unknown) => void;
    onRun?: (run: CronRun) => void;
  },
): { stop(): void };
