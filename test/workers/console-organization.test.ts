// The organization page sets the name and the time zone (issue 27 #3) through PATCH /organizations/current's
// body and service: a new zone moves the metrics' day boundaries at once; a bad zone changes nothing; a member
// without organizations.manage sees no form and a forged post is refused.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { records } from "./analytics-support";
import { callWithCookie, seedMember, signUpUser } from "./auth-support";
import { form, page } from "./console-analytics-support";
import type { Envelope, TestTenant } from "./support";

const organization = async (cookie: string) =>
  (await callWithCookie<Envelope<{ name: string; timeZone: string }>>("GET", "/api/v1/organizations/current", cookie)).body.data;
async function newCustomersByDay(cookie: string) {
  const res = await callWithCookie<Envelope<{ points: { periodStart: string; value: string | null }[] }>>(
    "GET",
    "/api/v1/metrics/new_customers?from=2026-03-09&to=2026-03-10",
    cookie,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.points.map((p) => [p.periodStart, p.value]);
}
const stored = async (organizationId: string) =>
  env.DB.prepare("SELECT name, time_zone AS timeZone FROM organizations WHERE id = ?").bind(organizationId).first();

describe("console organization: name and time zone", () => {
  it("an owner sets the zone by form; the API answers it and the metrics' days are cut in it", async () => {
    const t = await signUpUser();
    // 02:00 UTC on 10 March is still 9 March in São Paulo.
    await records({ ...t, key: "", apiKeyId: "" } as TestTenant).customer("Ana", "2026-03-10T02:00:00.000Z");
    expect((await callWithCookie("POST", "/api/v1/metrics/rebuild", t.cookie)).status).toBe(200);
    expect(await newCustomersByDay(t.cookie)).toEqual([
      ["2026-03-09", "1"],
      ["2026-03-10", "0"],
    ]);
    const before = await (await page("/console/organization", t.cookie)).text();
    expect(before).toMatch(/<select[^>]*name="timeZone"/);
    expect(before).toContain('<option value="America/Sao_Paulo" selected="">');

    const saved = await form("/console/organization", t.cookie, { name: "Loja da Ana", timeZone: "UTC" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/console/organization?done=rebuilt");
    const after = await (await page(saved.headers.get("location")!, t.cookie)).text();
    expect(after).toContain("Time zone set to UTC. The metrics and the dashboard were rebuilt in it");
    expect(await organization(t.cookie)).toMatchObject({ name: "Loja da Ana", timeZone: "UTC" });
    expect(await newCustomersByDay(t.cookie)).toEqual([
      ["2026-03-09", "0"],
      ["2026-03-10", "1"],
    ]);
    // A rename alone keeps the zone and says so plainly.
    const renamed = await form("/console/organization", t.cookie, { name: "Loja da Ana S.A.", timeZone: "UTC" });
    expect(renamed.headers.get("location")).toBe("/console/organization?done=saved");
    expect(await organization(t.cookie)).toMatchObject({ name: "Loja da Ana S.A.", timeZone: "UTC" });
  });

  it("a bad zone or an empty name is explained beside its field; nothing changes", async () => {
    const t = await signUpUser();
    const before = await stored(t.organizationId);
    for (const fields of [
      { name: "Renamed", timeZone: "Mars/Olympus_Mons" },
      { name: "Renamed", timeZone: "Asia/Tokyo" },
    ]) {
      const res = await form("/console/organization", t.cookie, fields);
      expect(res.status).toBe(400);
      const body = await res.text();
      expect(body).toMatch(/id="org-timeZone-error"[^>]*>[^<]*a supported IANA time zone/);
      expect(body).toContain('aria-invalid="true"');
    }
    const unnamed = await form("/console/organization", t.cookie, { name: " ", timeZone: "UTC" });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain('id="org-name-error"');
    expect(await stored(t.organizationId)).toEqual(before);
    expect((await organization(t.cookie)).timeZone).toBe("America/Sao_Paulo");
  });

  it("a developer or viewer sees no form, and a forged post is refused naming organizations.manage", async () => {
    const owner = await signUpUser();
    for (const role of ["developer", "viewer"] as const) {
      const member = await seedMember(owner.organizationId, role);
      const read = await page("/console/organization", member.cookie);
      expect(read.status).toBe(200);
      const body = await read.text();
      expect(body).not.toMatch(/name="timeZone"/);
      expect(body).toContain("Your role can see the organization but not change it.");
      const forged = await form("/console/organization", member.cookie, { name: "Taken", timeZone: "UTC" });
      expect(forged.status).toBe(403);
      expect(await forged.text()).toContain("organizations.manage");
    }
    expect(await organization(owner.cookie)).toMatchObject({ name: "Loja da Ana", timeZone: "America/Sao_Paulo" });
  });
});
