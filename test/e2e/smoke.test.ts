// `npm run smoke` against the local worker (test/e2e/global-setup.ts): the five-minute flow passes step by step, and
// the CLI exits 0 with its JSON summary; a wrong key fails the steps that need it and exits non-zero.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { runSmoke } from "../../scripts/lib/smoke.mjs";

const { baseUrl, apiKey } = inject("ponte");
const run = promisify(execFile);

describe("npm run smoke", () => {
  it("every step of the five-minute flow passes against the local worker", async () => {
    const lines: string[] = [];
    const summary = await runSmoke({ base: baseUrl, key: apiKey, say: (l) => lines.push(l) });
    expect(summary.steps.map((s) => [s.name, s.ok, s.ok ? "" : s.detail])).toEqual(
      [
        "health",
        "organization",
        "customer",
        "pix charge, idempotent",
        "pix qr code",
        "webhook endpoint and test ping",
        "passthrough read",
        "asaas dialect at /v3",
      ].map((name) => [name, true, ""]),
    );
    expect(summary.ok).toBe(true);
    expect(lines).toHaveLength(8);
    expect(lines.join("\n")).not.toContain(apiKey);
  });

  it("the CLI prints one line per step and the summary, exits 1 on a failed step, and never prints the key", async () => {
    const script = join(import.meta.dirname, "../../scripts/smoke.mjs");
    const bad = `ponte_test_${"x".repeat(40)}`;
    const failed = await run(process.execPath, [script, "--base", baseUrl, "--key", bad]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    const out = failed?.stdout ?? "";
    expect(out).toMatch(/^✓ health/m);
    expect(out).toMatch(/^✗ organization .*HTTP 401/m);
    expect(out).toMatch(/^✗ customer .*skipped: needs organization/m);
    const summary = JSON.parse(out.slice(out.indexOf("\n{") + 1)) as { ok: boolean; steps: { ok: boolean }[] };
    expect(summary.ok).toBe(false);
    expect(summary.steps).toHaveLength(8);
    expect(out).not.toContain(bad);
  });
});
