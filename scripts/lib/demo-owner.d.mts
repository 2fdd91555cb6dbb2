// Types for scripts/lib/demo-owner.mjs (imported by test/unit/demo-owner.test.ts).
export declare const DEMO_OWNER_EMAIL: string;
export function environmentOf(wranglerEnv: string, tomlText?: string): string | undefined;
export function hashConsolePassword(password: string, iterations?: number): Promise<string>;
export function demoOwnerSql(options: {
  organizationId: string;
  wranglerEnv?: string;
  now?: string;
  tomlText?: string;
}): Promise<{ email: string; password: string; sql: string } | null>;
