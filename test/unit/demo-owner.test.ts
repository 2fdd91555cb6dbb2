// The demo organization's owner (scripts/lib/demo-owner.mjs): only in the local environment, a fresh random
// password per seed run stored only as a hash that the worker's own verifyPassword accepts, and SQL that,
// run against the real migrations (node:sqlite), leaves exactly one owner membership and no old sessions.

import { describe, expect, it } from "vitest";
import { PASSWORD_ITERATIONS, verifyPassword } from "../../src/access/password";
import { DEMO_OWNER_EMAIL, demoOwnerSql, environmentOf } from "../../scripts/lib/demo-owner.mjs";
import { migratedSqlite } from "./migrated-sqlite";

const ORG = "01900000-0000-7000-8000-00000000d001";

function migratedDatabase() {
  const db = migratedSqlite();
  db.exec(
    `INSERT INTO organizations (id, name, default_workspace_id, created_at, updated_at) VALUES ('${ORG}', 'Ponte Demo', 'ws', 'x', 'x')`,
  );
  return db;
}

describe("scripts/lib/demo-owner.mjs", () => {
  it("reads each wrangler environment's ENVIRONMENT and refuses every one but local", async () => {
    expect(environmentOf("local")).toBe("local");
    expect(environmentOf("sandbox")).toBe("sandbox");
    expect(environmentOf("production")).toBe("production");
    expect(await demoOwnerSql({ organizationId: ORG, wranglerEnv: "sandbox" })).toBeNull();
    expect(await demoOwnerSql({ organizationId: ORG, wranglerEnv: "production" })).toBeNull();
    // The name of the section is not what counts: a [env.local] that says sandbox gets no account either.
    const toml = '[vars]\nENVIRONMENT = "production"\n[env.local.vars]\nENVIRONMENT = "sandbox"\n';
    expect(await demoOwnerSql({ organizationId: ORG, tomlText: toml })).toBeNull();
    expect(() => environmentOf("staging", toml)).toThrow(/env\.staging/);
  });

  it("stores only a hash the worker verifies, with a new random password on each run", async () => {
    const first = await demoOwnerSql({ organizationId: ORG });
    const second = await demoOwnerSql({ organizationId: ORG });
    expect(first?.email).toBe(DEMO_OWNER_EMAIL);
    expect(first?.password).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(second?.password).not.toBe(first?.password);
    expect(first?.sql).not.toContain(first?.password);
    const hash = /'(pbkdf2_sha256\$[^']+)'/.exec(first?.sql ?? "")?.[1] ?? "";
    expect(hash.split("$")[1]).toBe(String(PASSWORD_ITERATIONS));
    expect(await verifyPassword(first?.password ?? "", hash)).toBe(true);
    expect(await verifyPassword(second?.password ?? "", hash)).toBe(false);
  });

  it("against the migrated schema: one owner membership, the latest password, earlier sessions ended", async () => {
    const db = migratedDatabase();
    db.exec((await demoOwnerSql({ organizationId: ORG }))?.sql ?? "");
    const user = db.prepare("SELECT id FROM users WHERE email = ?").get(DEMO_OWNER_EMAIL) as { id: string };
    db.exec(`INSERT INTO sessions (id, user_id, token_hash, created_at, expires_at) VALUES ('s1', '${user.id}', 'h', 'x', 'y')`);
    db.exec(`UPDATE memberships SET role = 'viewer'`);
    const again = await demoOwnerSql({ organizationId: ORG });
    db.exec(again?.sql ?? "");
    expect(db.prepare("SELECT count(*) AS n FROM users").get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT organization_id, user_id, role FROM memberships").all()).toEqual([
      { organization_id: ORG, user_id: user.id, role: "owner" },
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
    const stored = db.prepare("SELECT password_hash FROM users").get() as { password_hash: string };
    expect(await verifyPassword(again?.password ?? "", stored.password_hash)).toBe(true);
  });
});
