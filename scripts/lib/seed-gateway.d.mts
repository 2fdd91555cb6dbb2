export function localEncryptionKey(wranglerToml?: string): string;
export function sealSecret(base64Key: string, plaintext: string, context: string): Promise<string>;
export function uuidv7(): string;
export interface GatewayAccountSeed {
  organizationId: string;
  workspaceId: string;
  upstreamApiKey: string;
  environment?: "live" | "test";
  encryptionKey?: string;
  id?: string;
  webhookToken?: string;
  now?: string;
}
export function gatewayAccountSql(options: GatewayAccountSeed): Promise<{ sql: string; accountId: string; webhookToken: string }>;
export function seedGatewayAccount(
  runSql: (sql: string) => unknown,
  options: GatewayAccountSeed,
): Promise<{ accountId: string; webhookToken: string }>;
