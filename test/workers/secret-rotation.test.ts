// Rotating SECRETS_ENCRYPTION_KEY (src/lib/secret-box.ts, src/db/reseal.ts): after the switch the new key seals and
// the previous one still opens what it sealed; the cron's re-seal sweeper rewrites every outdated value (a bounded
// batch per run) and says when none is left; then the previous key is removed and everything still opens.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backgroundDeps } from "../../src/deps";
import { webhookEndpoints } from "../../src/db/schema";
import { resealOutdatedSecrets, SEALED_COLUMNS } from "../../src/db/reseal";
import { signingSecrets } from "../../src/events/attempts";
import { forgetGatewayAccount, resolveGatewayAccount } from "../../src/gateway/accounts";
import { base64ToBytes, bytesToBase64, bytesToBase64Url, NATIVE_BASE64 } from "../../src/lib/base64";
import { currentKeyId } from "../../src/lib/secret-box";
import { runSweepers } from "../../src/scheduled";
import { seedGatewayAccount } from "./gateway-support";
import { seedTenant } from "./support";
import { createEndpoint } from "./webhooks-support";

const NEW_KEY = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const rotating = backgroundDeps({ ...env, SECRETS_ENCRYPTION_KEY: NEW_KEY, SECRETS_ENCRYPTION_KEY_PREVIOUS: env.SECRETS_ENCRYPTION_KEY });
const retired = backgroundDeps({ ...env, SECRETS_ENCRYPTION_KEY: NEW_KEY });

/** A value sealed the way the box did before key ids (`v1.<iv>.<ciphertext>`), with the test's (old) key. */
async function sealV1(plaintext: string, context: string) {
  const raw = Uint8Array.from(atob(env.SECRETS_ENCRYPTION_KEY), (ch) => ch.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const body = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `v1.${bytesToBase64Url(iv)}.${bytesToBase64Url(new Uint8Array(body))}`;
}

/** Every sealed value in the database, by the key id it names (`v1` for none). */
async function sealsByKey(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const col of SEALED_COLUMNS) {
    const { results } = await env.DB.prepare(`SELECT ${col.column} AS v FROM ${col.table} WHERE ${col.column} IS NOT NULL`).all<{
      v: string;
    }>();
    for (const { v } of results) {
      const [version, keyId] = v.split(".");
      const k = version === "v1" ? "v1" : (keyId ?? "?");
      counts[k] = (counts[k] ?? 0) + 1;
    }
  }
  return counts;
}

afterEach(() => vi.restoreAllMocks());

describe("rotating SECRETS_ENCRYPTION_KEY", () => {
  it("the previous key opens until the sweep has re-sealed everything; then it can be retired", async () => {
    const t = await seedTenant();
    const endpoint = await createEndpoint(t);
    const upstreamKeys = { test: "$aact_hmlg_rotation_test_1234", live: "$aact_prod_rotation_live_5678" };
    await seedGatewayAccount(t, upstreamKeys.test, "test");
    await seedGatewayAccount(t, upstreamKeys.live, "live");
    // A value from before key ids, and an idempotent answer (sealed with its request's context).
    await env.DB.prepare("UPDATE webhook_endpoints SET previous_secret_sealed = ?1, previous_secret_expires_at = ?2 WHERE id = ?3")
      .bind(await sealV1("whsec_legacy_secret", endpoint.id), new Date(Date.now() + 3_600_000).toISOString(), endpoint.id)
      .run();
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (organization_id, credential_id, key, request_hash, state, response_status, response_body, created_at) VALUES (?1, 'api_key:x', 'k-1', 'h', 'completed', 201, ?2, ?3)",
    )
      .bind(t.organizationId, await sealV1('{"data":{}}', `idempotency:${t.organizationId}:api_key:x:k-1`), Math.floor(Date.now() / 1000))
      .run();
    const oldId = await currentKeyId(env);
    const newId = await currentKeyId(retired.env);
    expect((await sealsByKey())[newId]).toBeUndefined();

    const upstreamKeyOf = async (deps: typeof rotating, environment: "live" | "test") => {
      const tenant = { organizationId: t.organizationId, workspaceId: t.workspaceId, environment };
      forgetGatewayAccount(tenant);
      return (await resolveGatewayAccount(deps, tenant)).upstreamKey;
    };
    const endpointRow = async () =>
      (await rotating.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, endpoint.id))
        .get()) as typeof webhookEndpoints.$inferSelect;

    // Mid-rotation: everything opens, old values and new.
    expect(await upstreamKeyOf(rotating, "test")).toBe(upstreamKeys.test);
    expect(await signingSecrets(rotating, await endpointRow())).toEqual([endpoint.secret, "whsec_legacy_secret"]);
    // Not yet retirable: without the previous key the old values do not open.
    await expect(upstreamKeyOf(retired, "live")).rejects.toThrow(/neither SECRETS_ENCRYPTION_KEY nor a previous key/);

    // One value per column per run (batch of 1): the gateway accounts' column needs two runs.
    const logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const first = await resealOutdatedSecrets(rotating.env, 1);
    expect(first).toMatchObject({ unopenable: 0, more: true });
    expect(first.resealed).toBeGreaterThanOrEqual(4);
    let runs = 1;
    for (let r = first; r.resealed > 0 || r.more; runs++) r = await resealOutdatedSecrets(rotating.env, 1);
    expect(runs).toBeGreaterThanOrEqual(2);
    const lines = logs.mock.calls.map(([line]) => JSON.parse(String(line)) as { msg: string; currentKeyId: string });
    expect(lines.at(-1)).toEqual({
      level: "info",
      msg: "every sealed value uses the current key: SECRETS_ENCRYPTION_KEY_PREVIOUS can be removed",
      currentKeyId: newId,
    });
    const seals = await sealsByKey();
    expect(seals[oldId]).toBeUndefined();
    expect(seals.v1).toBeUndefined();
    expect(seals[newId]).toBeGreaterThanOrEqual(5);

    // Retired: the previous key is gone and every value still opens, unchanged.
    expect(await upstreamKeyOf(retired, "test")).toBe(upstreamKeys.test);
    expect(await upstreamKeyOf(retired, "live")).toBe(upstreamKeys.live);
    expect(await signingSecrets(retired, await endpointRow())).toEqual([endpoint.secret, "whsec_legacy_secret"]);
    const stored = await env.DB.prepare("SELECT response_body FROM idempotency_keys WHERE key = 'k-1'").first<{ response_body: string }>();
    expect(stored?.response_body.startsWith(`v2.${newId}.`)).toBe(true);
  });

  it("without a previous key the cron's sweeper does nothing", async () => {
    const t = await seedTenant();
    await seedGatewayAccount(t, "$aact_hmlg_no_rotation_0001");
    const before = await sealsByKey();
    expect(await resealOutdatedSecrets(env, 1)).toEqual({ resealed: 0, unopenable: 0, more: false });
    expect((await runSweepers(env))["secret-reseal"]).toBe(0);
    expect(await sealsByKey()).toEqual(before);
  });
});

describe("the base64 codec in workerd (src/lib/base64.ts)", () => {
  it("is the runtime's own, and agrees with the RFC 4648 vectors and with the loop Node runs", () => {
    expect(NATIVE_BASE64).toBe(true);
    const vectors = [
      ["", ""],
      ["f", "Zg=="],
      ["fo", "Zm8="],
      ["foob", "Zm9vYg=="],
      ["foobar", "Zm9vYmFy"],
    ] as const;
    for (const [text, encoded] of vectors) {
      const bytes = new TextEncoder().encode(text);
      expect(bytesToBase64(bytes)).toBe(encoded);
      expect(bytesToBase64Url(bytes)).toBe(encoded.replace(/=+$/, ""));
      expect(new TextDecoder().decode(base64ToBytes(encoded))).toBe(text);
    }
    for (let n = 0; n <= 300; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n));
      let binary = "";
      for (const b of bytes) binary += String.fromCharCode(b);
      const standard = btoa(binary);
      expect(bytesToBase64(bytes)).toBe(standard);
      expect(bytesToBase64Url(bytes)).toBe(standard.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""));
      expect(base64ToBytes(standard)).toEqual(bytes);
      expect(base64ToBytes(bytesToBase64Url(bytes))).toEqual(bytes);
    }
  });
});
