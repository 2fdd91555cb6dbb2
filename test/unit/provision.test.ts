// `npm run provision` (scripts/lib/provision.mjs): find-or-create of what wrangler.toml's environment needs, replayed
// against recorded wrangler outputs (no network), its --dry-run, and the hostname set in one step with PUBLIC_BASE_URL.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostnameProblems } from "../../scripts/lib/deploy-config.mjs";
import { provision, requiredResources, withHostname } from "../../scripts/lib/provision.mjs";

const toml = readFileSync(join(import.meta.dirname, "../../wrangler.toml"), "utf8");
const SANDBOX_DB = "6f0b8c1e-5a8e-4c55-9a57-2f1d3e4c5b6a";

/** `wrangler d1 list --json` as wrangler 4.155 prints it (banner off with --json). */
const d1List = (names: string[]) =>
  JSON.stringify(
    names.map((name, i) => ({
      uuid: name === "ponte-sandbox" ? SANDBOX_DB : `00000000-0000-4000-8000-00000000000${i}`,
      name,
      created_at: "2026-11-20T12:00:00.000Z",
      version: "production",
      num_tables: 0,
      file_size: 12288,
    })),
    null,
    2,
  );

/** A recorded account: the databases and queues that exist; every call is kept. */
function account(existing: { databases: string[]; queues: string[]; secrets?: string[] }) {
  const calls: string[] = [];
  const state = { databases: [...existing.databases], queues: [...existing.queues] };
  const run = (args: string[]) => {
    calls.push(args.join(" "));
    const [group, verb, name] = args;
    if (group === "d1" && verb === "list") return d1List(state.databases);
    if (group === "d1" && verb === "create") {
      state.databases.push(name as string);
      return `✅ Successfully created DB '${name}' in region WEUR`;
    }
    if (group === "queues" && verb === "info") {
      if (state.queues.includes(name as string)) return `Queue Name: ${name}\nQueue ID: 4c1d\nNumber of Producers: 1`;
      throw Object.assign(new Error("Command failed"), { stderr: `✘ [ERROR] Queue "${name}" does not exist. [code: 11000]` });
    }
    if (group === "queues" && verb === "create") {
      state.queues.push(name as string);
      return `🌀 Creating queue '${name}'\n✅ Created queue '${name}'`;
    }
    if (group === "d1" && verb === "migrations") return "🌀 Executing on remote database DB\n✅ Migrations applied";
    if (group === "secret" && verb === "list") {
      if (!existing.secrets)
        throw Object.assign(new Error("Command failed"), { stderr: "This Worker does not exist on your account. [code: 10007]" });
      return JSON.stringify(existing.secrets.map((s) => ({ name: s, type: "secret_text" })));
    }
    throw new Error(`unexpected wrangler ${args.join(" ")}`);
  };
  return { run, calls, state };
}

describe("npm run provision", () => {
  it("reads what to create from wrangler.toml, not from a list of its own", () => {
    expect(requiredResources("sandbox", toml)).toMatchObject({
      worker: "ponte-sandbox",
      databases: [{ binding: "DB", name: "ponte-sandbox" }],
      queues: ["ponte-sandbox-events"],
      migrationTags: expect.arrayContaining(["v1", "v2"]),
      routes: ["sandbox.ponte.dev"],
      publicBaseUrl: "https://sandbox.ponte.dev",
    });
    const withExtraQueue = toml.replace(
      "[[env.sandbox.queues.consumers]]",
      '[[env.sandbox.queues.producers]]\nbinding = "AUDIT_QUEUE"\nqueue = "ponte-sandbox-audit"\n\n[[env.sandbox.queues.consumers]]',
    );
    expect(requiredResources("sandbox", withExtraQueue).queues).toEqual(["ponte-sandbox-events", "ponte-sandbox-audit"]);
  });

  it("on an empty account creates the database and queue, writes the id into wrangler.toml, migrates, and lists the secrets", async () => {
    const { run, calls } = account({ databases: [], queues: [] });
    const result = await provision({ environment: "sandbox", tomlText: toml, run });
    expect(calls).toEqual([
      "d1 list --json",
      "d1 create ponte-sandbox",
      "d1 list --json",
      "queues info ponte-sandbox-events",
      "queues create ponte-sandbox-events",
      "d1 migrations apply DB --remote --env sandbox",
      "secret list --format json --env sandbox",
    ]);
    expect(result.tomlChanged).toBe(true);
    expect(requiredResources("sandbox", result.tomlText).databases[0]?.id).toBe(SANDBOX_DB);
    // Only the sandbox's database_id changed: production's and local's are untouched.
    expect(requiredResources("production", result.tomlText)).toEqual(requiredResources("production", toml));
    expect(result.tomlText.split("\n").filter((l, i) => l !== toml.split("\n")[i])).toEqual([`database_id = "${SANDBOX_DB}"`]);
    // The worker does not exist before its first deploy: every secret but the rotation-only one is to be set.
    expect(result.secrets.map((s) => s.command)).toEqual([
      "npx wrangler secret put SECRETS_ENCRYPTION_KEY --env sandbox",
      "npx wrangler secret put AWS_PLATFORM_ACCESS_KEY_ID --env sandbox",
      "npx wrangler secret put AWS_PLATFORM_SECRET_ACCESS_KEY --env sandbox",
    ]);
    expect(result.secrets[0]?.required).toBe(true);
  });

  it("run again, it creates nothing and changes nothing; secrets already set are not asked for", async () => {
    const first = account({ databases: [], queues: [] });
    const once = await provision({ environment: "sandbox", tomlText: toml, run: first.run });
    const again = account({
      databases: ["ponte-production", "ponte-sandbox"],
      queues: ["ponte-sandbox-events"],
      secrets: ["SECRETS_ENCRYPTION_KEY"],
    });
    const twice = await provision({ environment: "sandbox", tomlText: once.tomlText, run: again.run });
    expect(again.calls.filter((c) => c.includes("create"))).toEqual([]);
    expect(twice.tomlChanged).toBe(false);
    expect(twice.secrets.map((s) => s.name)).toEqual(["AWS_PLATFORM_ACCESS_KEY_ID", "AWS_PLATFORM_SECRET_ACCESS_KEY"]);
  });

  it("a wrangler failure other than 'does not exist' stops it (never creates on an unknown error)", async () => {
    const { run, calls } = account({ databases: ["ponte-sandbox"], queues: [] });
    const failing = (args: string[]) => {
      if (args[0] === "queues") throw Object.assign(new Error("Command failed"), { stderr: "Authentication error [code: 10000]" });
      return run(args);
    };
    await expect(provision({ environment: "sandbox", tomlText: toml, run: failing })).rejects.toThrow(/Command failed/);
    expect(calls.some((c) => c.startsWith("queues create"))).toBe(false);
  });

  it("--dry-run runs nothing and shows every command", async () => {
    const lines: string[] = [];
    const result = await provision({
      environment: "production",
      tomlText: toml,
      dryRun: true,
      say: (l) => lines.push(l),
      run: () => {
        throw new Error("a dry run ran a command");
      },
    });
    expect(result.commands).toEqual([
      "wrangler d1 list --json",
      "wrangler d1 create ponte-production",
      "wrangler queues info ponte-events",
      "wrangler queues create ponte-events",
      "wrangler d1 migrations apply DB --remote",
      "wrangler secret list --format json",
    ]);
    expect(lines.join("\n")).toMatch(
      /Durable Objects ENDPOINT_DO \(EndpointDO\), LISTEN_DO \(ListenDO\), ORG_LOGS \(OrgLogDO\): created by `wrangler deploy`/,
    );
    expect(result.tomlChanged).toBe(false);
  });

  it("--hostname sets the custom domain and PUBLIC_BASE_URL together; deploy:check names a mismatch", async () => {
    const result = await provision({
      environment: "sandbox",
      tomlText: toml,
      dryRun: true,
      hostname: "sandbox.api.example.com.br",
      run: () => "",
    });
    expect(requiredResources("sandbox", result.tomlText)).toMatchObject({
      routes: ["sandbox.api.example.com.br"],
      publicBaseUrl: "https://sandbox.api.example.com.br",
    });
    expect(requiredResources("production", result.tomlText)).toMatchObject({
      routes: ["api.ponte.dev"],
      publicBaseUrl: "https://api.ponte.dev",
    });
    const production = withHostname(toml, "production", "api.example.com.br");
    expect(requiredResources("production", production)).toMatchObject({
      routes: ["api.example.com.br"],
      publicBaseUrl: "https://api.example.com.br",
    });
    expect(requiredResources("local", production).routes).toEqual([]);
    expect(hostnameProblems("production", production)).toEqual([]);
    expect(() => withHostname(toml, "sandbox", "https://sandbox.example.com")).toThrow(/not a host name/);

    const mismatched = toml.replace('routes = [{ pattern = "sandbox.ponte.dev"', 'routes = [{ pattern = "sandbox.elsewhere.dev"');
    expect(hostnameProblems("sandbox", mismatched)).toEqual([
      "sandbox: PUBLIC_BASE_URL host sandbox.ponte.dev is none of the routes (sandbox.elsewhere.dev)",
    ]);
    expect(hostnameProblems("sandbox", toml)).toEqual([]);
  });
});
