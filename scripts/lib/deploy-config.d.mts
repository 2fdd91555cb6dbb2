export const DEPLOYED_ENVIRONMENTS: string[];
export function environmentConfig(
  environment: string,
  tomlText?: string,
): { section: Record<string, unknown>; top: Record<string, unknown> };
export const SECRETS: { name: string; required: boolean; rotation?: boolean; what: string }[];
export function hostnameProblems(environment: string, tomlText?: string): string[];
export function providedNames(environment: string, tomlText?: string): Set<string>;
export function envProperties(): { name: string; optional: boolean }[];
export function configurationProblems(
  environment: string,
  options?: {
    properties?: { name: string; optional: boolean }[];
    tomlText?: string;
    secrets?: { name: string; required: boolean; what: string }[];
  },
): string[];
