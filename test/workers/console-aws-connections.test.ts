// Console AWS connections page over the aws-connections services, against the simulator's AWS.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signUpUser } from "./auth-support";
import { BASE } from "./support";

const SECRET = "consoleSecretAccessKey/EXAMPLE0123456789";
const newKeyId = () => `AKIA${crypto.randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`;
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function form(path: string, cookie: string, fields: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}
const page = (path: string, cookie: string) => SELF.fetch(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
const connectionsOf = async (workspaceId: string) =>
  (
    await env.DB.prepare("SELECT * FROM aws_connections WHERE workspace_id = ? ORDER BY created_at")
      .bind(workspaceId)
      .all<Record<string, string>>()
  ).results;

describe("console AWS connections page", () => {
  it("connects by access key, verifies and syncs; the secret never comes back; the page shows status and counts", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const empty = await page("/console/aws-connections", cookie);
    expect(empty.status).toBe(200);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain('href="/console/aws-connections" aria-current="page"');
    expect(emptyHtml).toContain("No AWS account connected");
    // The default category set's infrastructure is preselected.
    expect(emptyHtml).toMatch(/<option value="[0-9a-f-]{36}" selected="">Infrastructure<\/option>/);
    const infrastructure = /<option value="([0-9a-f-]{36})" selected="">Infrastructure/.exec(emptyHtml)?.[1] ?? "";

    const created = await form("/console/aws-connections", cookie, {
      name: "Production",
      authType: "ACCESS_KEY",
      accessKeyId: newKeyId(),
      secretAccessKey: SECRET,
      costCategoryId: infrastructure,
      exchangeRate: "5.40",
    });
    expect(created.status).toBe(201);
    const createdHtml = await created.text();
    expect(createdHtml).toContain("Press Verify");
    expect(createdHtml).not.toContain(SECRET);
    const [conn] = await connectionsOf(workspaceId);
    expect(conn).toMatchObject({ status: "PENDING", cost_category_id: infrastructure, exchange_rate_micros: 5_400_000 });

    const verified = await form(`/console/aws-connections/${conn?.id}/verify`, cookie);
    expect(verified.status).toBe(200);
    const verifiedHtml = await verified.text();
    expect(verifiedHtml).toMatch(/Verified: AWS account \d{12}/);
    expect(verifiedHtml).toContain('data-status="ACTIVE"');

    const from = addDays(today(), -9);
    const to = addDays(today(), -3);
    const synced = await form(`/console/aws-connections/${conn?.id}/sync`, cookie, { from, to });
    expect(synced.status).toBe(200);
    const syncedHtml = await synced.text();
    const counts = new RegExp(`Synced ${from} to ${to} \\(1 page\\): (\\d+) new, 0 corrected, 0 removed, 0 unchanged`).exec(syncedHtml);
    expect(counts).not.toBeNull();
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM expenses WHERE workspace_id = ? AND source = 'AWS'")
      .bind(workspaceId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(Number(counts?.[1]));
    expect(syncedHtml).toContain(`through ${to}`);
    expect(await (await page("/console/aws-connections", cookie)).text()).not.toContain(SECRET);
  });

  it("a role connection shows its external id; a refused key shows FAILED and AWS's error; bad input re-renders with a 400", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const role = await form("/console/aws-connections", cookie, {
      name: "Payer",
      authType: "ROLE",
      roleArn: "arn:aws:iam::123456789012:role/PonteCostReader",
      exchangeRate: "5",
    });
    expect(role.status).toBe(201);
    const [roleConn] = await connectionsOf(workspaceId);
    expect(await role.text()).toContain(`Add the external id ${roleConn?.external_id} to the role`);

    await form("/console/aws-connections", cookie, {
      name: "Broken",
      authType: "ACCESS_KEY",
      accessKeyId: "AKIAINVALIDTESTKEY00",
      secretAccessKey: SECRET,
      exchangeRate: "5",
    });
    const broken = (await connectionsOf(workspaceId)).find((r) => r.name === "Broken");
    const refused = await form(`/console/aws-connections/${broken?.id}/verify`, cookie);
    expect(refused.status).toBe(200);
    const html = await refused.text();
    expect(html).toContain("AWS refused: InvalidClientTokenId");
    expect(html).toContain('data-status="FAILED"');
    expect(html).toMatch(/data-last-error="true">InvalidClientTokenId: /);

    const bad = await form("/console/aws-connections", cookie, { name: "No key", authType: "ACCESS_KEY", exchangeRate: "5" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("accessKeyId");
    expect(await connectionsOf(workspaceId)).toHaveLength(2);
  });
});
