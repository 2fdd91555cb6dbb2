export interface ProvisionResult {
  commands: string[];
  tomlText: string;
  tomlChanged: boolean;
  secrets: { name: string; required: boolean; command: string; what: string }[];
  resources: ReturnType<typeof requiredResources>;
}
export function requiredResources(
  environment: string,
  tomlText?: string,
): {
  worker: string;
  databases: { binding: string; name: string; id: string }[];
  queues: string[];
  durableObjects: { binding: string; className: string }[];
  migrationTags: string[];
  routes: string[];
  publicBaseUrl: string | undefined;
};
export function withDatabaseId(tomlText: string, environment: string, name: string, id: string): string;
export function withHostname(tomlText: string, environment: string, hostname: string): string;
export function provision(options: {
  environment: string;
  tomlText: string;
  run: (args: string[]) => string;
  dryRun?: boolean;
  hostname?: string;
  say?: (line: string) => void;
}): Promise<ProvisionResult>;
