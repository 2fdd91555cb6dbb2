// Seeds a gateway account for local runs (npm start / npm run seed), wired to the upstream simulator.
// The key is sealed exactly as src/lib/secret-box.ts seals it — AES-256-GCM, a 12-byte IV, the account
// id as additional data, stored as `v1.<base64url iv>.<base64url ciphertext>` — so the worker opens it.
import { createHash, randomBytes, webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";

const { subtle } = webcrypto;
const b64url = (bytes) => Buffer.from(bytes).toString("base64url");

/** SECRETS_ENCRYPTION_KEY of wrangler.toml's [env.local] (a development-only key). */
export function localEncryptionKey(wranglerToml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8")) {
  const local = wranglerToml.split(/^\[env\.local\]\s*$/m)[1]?.split(/^\[(?!\[)[^\]]+\]\s*$/m)[0] ?? "";
  const match = /SECRETS_ENCRYPTION_KEY\s*=\s*"([^"]+)"/.exec(local);
  if (!match) throw new Error("wrangler.toml [env.local] has no SECRETS_ENCRYPTION_KEY");
  return match[1];
}

/** Same output format and AAD as secret-box.ts sealSecret. */
export async function sealSecret(base64Key, plaintext, context) {
  const raw = Buffer.from(base64Key, "base64");
  if (raw.byteLength !== 32) throw new Error("SECRETS_ENCRYPTION_KEY must be 32 bytes, base64-encoded");
  const key = await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const sealed = await subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `v1.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
}

/** A UUIDv7 (time-ordered, like src/lib/ids.ts newId). */
export function uuidv7() {
  const bytes = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const quote = (value) => (value === null ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

/**
 * The INSERT for an active gateway account. `upstreamApiKey` for the simulator: any `$aact_…` key
 * (each is its own simulated account). Returns the SQL, the account id and the inbound webhook token.
 */
export async function gatewayAccountSql({
  organizationId,
  workspaceId,
  upstreamApiKey,
  environment = "test",
  encryptionKey = localEncryptionKey(),
  id = uuidv7(),
  webhookToken = b64url(randomBytes(32)),
  now = new Date().toISOString(),
}) {
  const sealed = await sealSecret(encryptionKey, upstreamApiKey, id);
  const tokenHash = createHash("sha256").update(webhookToken).digest("hex");
  const values = [id, organizationId, workspaceId, environment, sealed, upstreamApiKey.slice(-4), tokenHash, "active", now, now, now]
    .map(quote)
    .join(", ");
  const sql =
    "INSERT INTO gateway_accounts (id, organization_id, workspace_id, environment, upstream_key_sealed, upstream_key_last4, webhook_token_hash, status, verified_at, created_at, updated_at)\n" +
    `VALUES (${values});\n`;
  return { sql, accountId: id, webhookToken };
}

/** Runs the INSERT through the seed script's SQL runner (e.g. one that feeds `wrangler d1 execute --local`). */
export async function seedGatewayAccount(runSql, options) {
  const { sql, accountId, webhookToken } = await gatewayAccountSql(options);
  await runSql(sql);
  return { accountId, webhookToken };
}
