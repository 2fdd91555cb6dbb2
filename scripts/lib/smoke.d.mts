export interface SmokeStep {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}
export function runSmoke(options: {
  base: string;
  key: string;
  webhookUrl?: string;
  fetchImpl?: typeof fetch;
  say?: (line: string) => void;
}): Promise<{ ok: boolean; base: string; steps: SmokeStep[] }>;
