// The demo organization's owner: a console account (member with role owner) so that `npm start` can print a
// sign-in beside the test API key and a newcomer lands on the demo dashboard with its history. Local only: the
// environment is read from the wrangler.toml section the seed writes to, and anything but ENVIRONMENT "local"
// (sandbox, production) gets no account. The password is generated on every seed run (random, base62) and stored
// only as the console's password hash — PBKDF2-SHA256 in the format of src/access/password.ts, which verifies it —
// and the account's earlier sessions end with it, as a password change ends them.
import { randomInt, webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { ROOT, sqlString, uuidv7 } from "./local.mjs";

export const DEMO_OWNER_EMAIL = "demo@ponte.example";
const DEMO_OWNER_NAME = "Demo owner";
/** src/access/password.ts PASSWORD_ITERATIONS (the Workers maximum); test/unit/demo-owner.test.ts checks they agree. */
const ITERATIONS = 100_000;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** ENVIRONMENT of one wrangler.toml environment (`production` is the top level). */
export function environmentOf(wranglerEnv, tomlText = readFileSync(join(ROOT, "wrangler.toml"), "utf8")) {
  const config = parse(tomlText);
  const section = wranglerEnv === "production" ? config : config.env?.[wranglerEnv];
  if (!section) throw new Error(`wrangler.toml has no [env.${wranglerEnv}]`);
  return section.vars?.ENVIRONMENT;
}

/** `pbkdf2_sha256$<iterations>$<base64 salt>$<base64 hash>`, as src/access/password.ts hashPassword writes it. */
export async function hashConsolePassword(password, iterations = ITERATIONS) {
  const salt = webcrypto.getRandomValues(new Uint8Array(16));
  const material = await webcrypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await webcrypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, 256);
  return `pbkdf2_sha256$${iterations}$${Buffer.from(salt).toString("base64")}$${Buffer.from(bits).toString("base64")}`;
}

/**
 * The SQL that makes (or keeps) the demo owner with a fresh password, and that password — or null when the
 * wrangler environment `wranglerEnv` is not the local one (the seed never creates a console account there).
 */
export async function demoOwnerSql({ organizationId, wranglerEnv = "local", now = new Date().toISOString(), tomlText } = {}) {
  if (environmentOf(wranglerEnv, tomlText) !== "local") return null;
  let password = "";
  for (let i = 0; i < 20; i++) password += BASE62[randomInt(62)];
  const hash = await hashConsolePassword(password);
  const email = sqlString(DEMO_OWNER_EMAIL);
  const userId = `(SELECT id FROM users WHERE email = ${email})`;
  const sql = `
INSERT OR IGNORE INTO users (id, email, name, password_hash, created_at, updated_at)
  VALUES (${sqlString(uuidv7())}, ${email}, ${sqlString(DEMO_OWNER_NAME)}, ${sqlString(hash)}, ${sqlString(now)}, ${sqlString(now)});
UPDATE users SET password_hash = ${sqlString(hash)}, updated_at = ${sqlString(now)} WHERE email = ${email};
DELETE FROM sessions WHERE user_id = ${userId};
INSERT OR IGNORE INTO memberships (id, organization_id, user_id, role, created_at, updated_at)
  VALUES (${sqlString(uuidv7())}, ${sqlString(organizationId)}, ${userId}, 'owner', ${sqlString(now)}, ${sqlString(now)});
UPDATE memberships SET role = 'owner', updated_at = ${sqlString(now)} WHERE organization_id = ${sqlString(organizationId)} AND user_id = ${userId};
`;
  return { email: DEMO_OWNER_EMAIL, password, sql };
}
