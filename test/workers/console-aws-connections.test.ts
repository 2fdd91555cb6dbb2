// Console AWS connections page over the aws-connections services, against the simulator's AWS: connect,
// verify, sync, and the edit page (rename, re-rate, re-file, disable/enable, delete once confirmed).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callWithCookie, seedMember, signUpUser } from "./auth-support";
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
/** A successful action redirects (303); the page it names says the outcome. */
async function followed(res: Response, cookie: string) {
  expect(res.status).toBe(303);
  const res2 = await page(res.headers.get("location") ?? "", cookie);
  expect(res2.status).toBe(200);
  return res2.text();
}
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
    const createdHtml = await followed(created, cookie);
    expect(createdHtml).toContain("Press Verify");
    expect(createdHtml).not.toContain(SECRET);
    const [conn] = await connectionsOf(workspaceId);
    expect(conn).toMatchObject({ status: "PENDING", cost_category_id: infrastructure, exchange_rate_micros: 5_400_000 });

    const verified = await form(`/console/aws-connections/${conn?.id}/verify`, cookie);
    const verifiedHtml = await followed(verified, cookie);
    expect(verifiedHtml).toMatch(/Verified: AWS account \d{12}/);
    expect(verifiedHtml).toContain('data-status="ACTIVE"');

    const from = addDays(today(), -9);
    const to = addDays(today(), -3);
    const synced = await form(`/console/aws-connections/${conn?.id}/sync`, cookie, { from, to });
    const syncedHtml = await followed(synced, cookie);
    const counts = new RegExp(`Synced ${from} to ${to} \\(1 page\\): (\\d+) new, 0 corrected, 0 removed, 0 unchanged`).exec(syncedHtml);
    expect(counts).not.toBeNull();
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM expenses WHERE workspace_id = ? AND source = 'AWS'")
      .bind(workspaceId)
      .first<{ n: number }>();
    expect(stored?.n).toBe(Number(counts?.[1]));
    expect(syncedHtml).toContain(`through ${to}`);
    expect(await (await page("/console/aws-connections", cookie)).text()).not.toContain(SECRET);

    // An imported expense's edit page offers only its category, and re-filing it is saved.
    const imported = await env.DB.prepare("SELECT id FROM expenses WHERE workspace_id = ? AND source = 'AWS' LIMIT 1")
      .bind(workspaceId)
      .first<{ id: string }>();
    const software = /<option value="([0-9a-f-]{36})"[^>]*>Software</.exec(emptyHtml)?.[1] ?? "";
    const editHtml = await (await page(`/console/expenses/${imported?.id}/edit`, cookie)).text();
    expect(editHtml).toContain("Imported from AWS: only its category can change");
    expect(editHtml).not.toContain('name="amount"');
    expect(editHtml).not.toContain("Delete expense");
    const refiled = await form(`/console/expenses/${imported?.id}`, cookie, { costCategoryId: software });
    expect(refiled.headers.get("location")).toBe("/console/expenses?done=updated");
    const api = await callWithCookie<{ data: Record<string, unknown> }>("GET", `/api/v1/expenses/${imported?.id}`, cookie);
    expect(api.body.data).toMatchObject({ source: "AWS", costCategoryId: software });
  });

  it("a role connection shows its external id; a refused key shows FAILED and AWS's error; bad input re-renders with a 400", async () => {
    const { cookie, workspaceId } = await signUpUser();
    const role = await form("/console/aws-connections", cookie, {
      name: "Payer",
      authType: "ROLE",
      roleArn: "arn:aws:iam::123456789012:role/PonteCostReader",
      exchangeRate: "5",
    });
    const roleHtml = await followed(role, cookie);
    const [roleConn] = await connectionsOf(workspaceId);
    expect(roleHtml).toContain(`Add the external id ${roleConn?.external_id} to the role`);

    await form("/console/aws-connections", cookie, {
      name: "Broken",
      authType: "ACCESS_KEY",
      accessKeyId: "AKIAINVALIDTESTKEY00",
      secretAccessKey: SECRET,
      exchangeRate: "5",
    });
    const broken = (await connectionsOf(workspaceId)).find((r) => r.name === "Broken");
    const refused = await form(`/console/aws-connections/${broken?.id}/verify`, cookie);
    const html = await followed(refused, cookie);
    expect(html).toContain("AWS refused: InvalidClientTokenId");
    expect(html).toContain('data-status="FAILED"');
    expect(html).toMatch(/data-last-error="true">InvalidClientTokenId: /);

    const bad = await form("/console/aws-connections", cookie, { name: "No key", authType: "ACCESS_KEY", exchangeRate: "5" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("accessKeyId");
    expect(badHtml).toContain('value="No key"');
    expect(await connectionsOf(workspaceId)).toHaveLength(2);
  });

  it("edits a connection: re-rates and re-files it, disables and enables it, deletes it once confirmed; a viewer cannot", async () => {
    const { cookie, organizationId, workspaceId } = await signUpUser();
    await form("/console/aws-connections", cookie, {
      name: "Billing",
      authType: "ACCESS_KEY",
      accessKeyId: newKeyId(),
      secretAccessKey: SECRET,
      exchangeRate: "5.40",
    });
    const [conn] = await connectionsOf(workspaceId);
    const base = `/console/aws-connections/${conn?.id}`;
    const software = (await env.DB.prepare("SELECT id FROM cost_categories WHERE workspace_id = ? AND key = 'software'")
      .bind(workspaceId)
      .first<{ id: string }>())!.id;
    const stored = async () =>
      await callWithCookie<{ data: Record<string, unknown> }>("GET", `/api/v1/aws-connections/${conn?.id}`, cookie);
    const editPage = await (await page(`${base}/edit`, cookie)).text();
    expect(editPage).toContain('value="5.400000"');
    expect(editPage).not.toContain(SECRET);

    const bad = await form(base, cookie, {
      name: "Billing EU",
      accessKeyId: conn?.access_key_id ?? "",
      costCategoryId: conn?.cost_category_id ?? "",
      exchangeRate: "five",
    });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('value="Billing EU"');
    expect(badHtml).toContain('value="five"');
    expect(badHtml).toMatch(/id="edit-exchangeRate" name="exchangeRate"[^>]*aria-invalid="true"/);
    expect((await stored()).body.data).toMatchObject({ name: "Billing", exchangeRate: "5.400000" });

    const viewer = await seedMember(organizationId, "viewer");
    const forged = await form(`${base}/disable`, viewer.cookie);
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("finance.manage");
    expect((await stored()).body.data).toMatchObject({ status: "PENDING" });

    const saved = await form(base, cookie, {
      name: "Billing EU",
      accessKeyId: conn?.access_key_id ?? "",
      costCategoryId: software,
      exchangeRate: "5.75",
    });
    const savedHtml = await followed(saved, cookie);
    expect(savedHtml).toContain("Billing EU saved.");
    expect(savedHtml).toContain("R$ 5.750000 per USD");
    expect((await stored()).body.data).toMatchObject({
      name: "Billing EU",
      exchangeRate: "5.750000",
      costCategoryId: software,
      status: "PENDING",
    });

    expect(await followed(await form(`${base}/disable`, cookie), cookie)).toContain("Billing EU is disabled");
    expect((await stored()).body.data).toMatchObject({ status: "DISABLED" });
    expect(await followed(await form(`${base}/enable`, cookie), cookie)).toContain("press Verify");
    expect((await stored()).body.data).toMatchObject({ status: "PENDING" });

    const unconfirmed = await form(`${base}/delete`, cookie);
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("tick the box to confirm");
    expect(await connectionsOf(workspaceId)).toHaveLength(1);
    expect(await followed(await form(`${base}/delete`, cookie, { confirmDelete: "yes" }), cookie)).toContain("Connection deleted.");
    expect((await stored()).status).toBe(404);
  });
});
