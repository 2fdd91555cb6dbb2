// The organization's time zone (issue 27 #3): set through PATCH /organizations/current, validated against
// the zones analytics support, audited, and the rollups rebuilt in the new zone in the same request.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { records, rebuild } from "./analytics-support";
import { call, type Envelope, expectError, seedApiKey, seedTenant, type TestTenant } from "./support";

interface Organization {
  name: string;
  timeZone: string;
}
const patch = (key: string, body: Record<string, unknown>) =>
  call<Envelope<Organization>>("PATCH", "/api/v1/organizations/current", { key, body });
const zoneOf = async (t: TestTenant) =>
  (await env.DB.prepare("SELECT time_zone AS z FROM organizations WHERE id = ?").bind(t.organizationId).first<{ z: string }>())!.z;
async function newCustomersByDay(t: TestTenant) {
  const res = await call<Envelope<{ points: { periodStart: string; value: string | null }[] }>>(
    "GET",
    "/api/v1/metrics/new_customers?from=2026-03-09&to=2026-03-10",
    { key: t.key },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.points.map((p) => [p.periodStart, p.value]);
}

describe("PATCH /organizations/current timeZone", () => {
  it("sets the zone, audits it, and the existing days are counted in it at once", async () => {
    const t = await seedTenant();
    // 02:00 UTC on 10 March is still 9 March in São Paulo (UTC−03:00).
    await records(t).customer("Ana", "2026-03-10T02:00:00.000Z");
    await rebuild(t);
    expect(await newCustomersByDay(t)).toEqual([
      ["2026-03-09", "1"],
      ["2026-03-10", "0"],
    ]);

    const res = await patch(t.key, { timeZone: "UTC" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Acme Ltda", timeZone: "UTC" });
    expect(await zoneOf(t)).toBe("UTC");
    expect(await newCustomersByDay(t)).toEqual([
      ["2026-03-09", "0"],
      ["2026-03-10", "1"],
    ]);
    const audit = await call<Envelope<{ action: string; metadata: Record<string, unknown> }[]>>(
      "GET",
      "/api/v1/audit-logs?action=organization.updated",
      { key: t.key },
    );
    expect(audit.body.data[0]?.metadata).toMatchObject({ timeZone: "UTC", previousTimeZone: "America/Sao_Paulo" });
    // A rename alone leaves the zone as it is.
    expect((await patch(t.key, { name: "Acme S.A." })).body.data).toMatchObject({ name: "Acme S.A.", timeZone: "UTC" });
  });

  it("refuses an unknown or unsupported zone and an empty change, naming body.timeZone; nothing changes", async () => {
    const t = await seedTenant();
    for (const timeZone of ["Mars/Olympus_Mons", "Asia/Tokyo", "utc", 3]) {
      const err = expectError(await patch(t.key, { timeZone }), 400, "VALIDATION_FAILED");
      expect(err.details.fields.map((f) => f.path)).toEqual(["body.timeZone"]);
    }
    expectError(await patch(t.key, {}), 400, "VALIDATION_FAILED");
    expect(await zoneOf(t)).toBe("America/Sao_Paulo");
  });

  it("needs analytics.manage (the rebuild) and an organization-wide credential, checked before any write", async () => {
    const t = await seedTenant();
    const orgOnly = await seedApiKey(t.organizationId, null, { permissions: ["organizations.manage"] });
    const err = expectError(await patch(orgOnly.key, { timeZone: "UTC" }), 403, "FORBIDDEN");
    expect(err.details.requiredPermission).toBe("analytics.manage");
    expect((await patch(orgOnly.key, { name: "Renamed" })).status).toBe(200);
    const bound = await seedApiKey(t.organizationId, t.workspaceId);
    expectError(await patch(bound.key, { timeZone: "UTC" }), 403, "FORBIDDEN");
    expect(await zoneOf(t)).toBe("America/Sao_Paulo");
  });
});
