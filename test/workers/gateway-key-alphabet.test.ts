// Issue 26 #10: an upstream API key travels in an HTTP header, so only printable ASCII without whitespace is
// accepted (create and update); a key stored before the rule is refused before any Headers holds it, and no log
// line ever carries it.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectError, seedTenant } from "./support";
import { seedGatewayAccount, simKey } from "./gateway-support";
import type { GatewayAccount, GatewayAccountWithToken, Reply } from "./bodies";

const ACCOUNTS = "/api/v1/gateway-accounts";
const accountsOf = (workspaceId: string) =>
  env.DB.prepare("SELECT id, upstream_key_last4 FROM gateway_accounts WHERE workspace_id = ?")
    .bind(workspaceId)
    .all<{ id: string; upstream_key_last4: string }>()
    .then((r) => r.results);

const BAD_KEYS = [
  ["non-ASCII letter", "$aact_hmlg_chave_ção_0123456789"],
  ["no-break space", "$aact_hmlg_0123456789\u00a0abcdef"],
  ["zero-width space", "$aact_hmlg_\u200b0123456789abcdef"],
  ["emoji", "$aact_hmlg_0123456789abcdef🔑"],
  ["tab", "$aact_hmlg_0123456789\tabcdef"],
  ["DEL", "$aact_hmlg_0123456789\u007fabcdef"],
  ["too long", `$aact_${"a".repeat(507)}`],
] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("upstream API key alphabet (issue 26 #10)", () => {
  it.each(BAD_KEYS)("create refuses a key with a %s: 400 on body.upstreamApiKey, nothing stored", async (_label, upstreamApiKey) => {
    const tenant = await seedTenant();
    const error = expectError(
      await call<Reply<GatewayAccountWithToken>>("POST", ACCOUNTS, { key: tenant.key, body: { upstreamApiKey } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(error.details.fields[0]).toMatchObject({ path: "body.upstreamApiKey", message: expect.stringContaining("printable ASCII") });
    expect(JSON.stringify(error)).not.toContain(upstreamApiKey);
    expect(await accountsOf(tenant.workspaceId)).toEqual([]);
  });

  it("update refuses a non-ASCII key and keeps the stored one", async () => {
    const tenant = await seedTenant();
    const good = simKey();
    const id = await seedGatewayAccount(tenant, good);
    for (const [, upstreamApiKey] of BAD_KEYS) {
      expectError(
        await call<Reply<GatewayAccount>>("PATCH", `${ACCOUNTS}/${id}`, { key: tenant.key, body: { upstreamApiKey } }),
        400,
        "VALIDATION_FAILED",
      );
    }
    expect(await accountsOf(tenant.workspaceId)).toEqual([{ id, upstream_key_last4: good.slice(-4) }]);
  });

  it("a longest-allowed printable ASCII key is accepted", async () => {
    const tenant = await seedTenant();
    const upstreamApiKey = `$aact_${"A~!".repeat(168)}`; // 510 characters
    const res = await call<Reply<GatewayAccountWithToken>>("POST", ACCOUNTS, { key: tenant.key, body: { upstreamApiKey } });
    expect(res.status).toBe(201);
    expect(res.body.data.upstreamKeyLast4).toBe(upstreamApiKey.slice(-4));
  });

  it("a non-ASCII key stored before the rule is refused before the call (502 UPSTREAM_AUTH_FAILED), and never logged", async () => {
    const tenant = await seedTenant();
    const stored = "$aact_hmlg_chave_ção_0123456789";
    await seedGatewayAccount(tenant, stored);
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const res = await call("GET", "/api/v1/finance/balance", { key: tenant.key });
    const error = expectError(res, 502, "UPSTREAM_AUTH_FAILED");
    expect(error.message).toMatch(/printable ASCII/);
    expect(JSON.stringify(res.body)).not.toContain("ção");
    expect(lines.join("\n")).not.toContain("ção");
    expect(lines.join("\n")).not.toContain(stored);
  });
});

describe("AWS secret access key alphabet (issue 26 #10)", () => {
  it("a secret with a non-ASCII character or a space is refused (400 on body.secretAccessKey), no connection stored", async () => {
    const tenant = await seedTenant();
    for (const secretAccessKey of ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYçXAMPLEKEY", "wJalrXUtnFEMI K7MDENG/bPxRfiCYEXAMPLEKEY"]) {
      const error = expectError(
        await call("POST", "/api/v1/aws-connections", {
          key: tenant.key,
          body: { name: "AWS", authType: "ACCESS_KEY", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey, exchangeRate: "5" },
        }),
        400,
        "VALIDATION_FAILED",
      );
      expect(error.details.fields[0]).toMatchObject({ path: "body.secretAccessKey", message: expect.stringContaining("printable ASCII") });
      expect(JSON.stringify(error)).not.toContain(secretAccessKey);
    }
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM aws_connections WHERE workspace_id = ?")
      .bind(tenant.workspaceId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });
});
