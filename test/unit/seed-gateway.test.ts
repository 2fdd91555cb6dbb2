// The Node seed helper seals upstream keys exactly as the worker's secret box does.
import { describe, expect, it } from "vitest";
import { openSecret, sha256Hex } from "../../src/lib/secret-box";
import { isUuid } from "../../src/lib/ids";
import { gatewayAccountSql, localEncryptionKey, sealSecret, seedGatewayAccount } from "../../scripts/lib/seed-gateway.mjs";

describe("scripts/lib/seed-gateway.mjs", () => {
  const key = localEncryptionKey();

  it("reads the local key from wrangler.toml [env.local]", () => {
    expect(key).toBe("bG9jYWwtZGV2ZWxvcG1lbnQta2V5LTMyLWJ5dGVzISE=");
    expect(() => localEncryptionKey('[vars]\nSECRETS_ENCRYPTION_KEY = "x"\n')).toThrow(/env\.local/);
  });

  it("a value sealed in Node opens with src/lib/secret-box.ts, and only with its own context", async () => {
    const sealed = await sealSecret(key, "$aact_hmlg_abc123", "acct-1");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(await openSecret({ SECRETS_ENCRYPTION_KEY: key }, sealed, "acct-1")).toBe("$aact_hmlg_abc123");
    await expect(openSecret({ SECRETS_ENCRYPTION_KEY: key }, sealed, "acct-2")).rejects.toThrow();
  });

  it("builds one INSERT whose sealed key opens under the account id and whose token hash matches", async () => {
    let ran = "";
    const seeded = await seedGatewayAccount(
      (sql) => {
        ran = sql;
      },
      { organizationId: "org'1", workspaceId: "ws-1", upstreamApiKey: "$aact_hmlg_seeded9876" },
    );
    expect(isUuid(seeded.accountId)).toBe(true);
    expect(ran).toContain("'org''1'");
    expect(ran).toContain("'9876'");
    expect(ran).not.toContain("$aact_hmlg_seeded9876");
    const sealed = /'(v1\.[^']+)'/.exec(ran)![1]!;
    expect(await openSecret({ SECRETS_ENCRYPTION_KEY: key }, sealed, seeded.accountId)).toBe("$aact_hmlg_seeded9876");
    expect(ran).toContain(`'${await sha256Hex(seeded.webhookToken)}'`);
    const again = await gatewayAccountSql({
      organizationId: "o",
      workspaceId: "w",
      upstreamApiKey: "$aact_hmlg_x1234567",
      id: "fixed-id",
      webhookToken: "tok",
    });
    expect(again.accountId).toBe("fixed-id");
    expect(again.webhookToken).toBe("tok");
  });
});
