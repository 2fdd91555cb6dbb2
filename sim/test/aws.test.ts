// The simulator's AWS: SigV4 header shape, STS identities and roles, Cost Explorer paging and history.
import { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { fetchSim } from "./helpers";

const keyId = () => `AKIA${crypto.randomUUID().replace(/-/g, "").slice(0, 16).toUpperCase()}`;
const signed = async (
  service: "sts" | "ce",
  creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  init: RequestInit,
) => {
  const req = await new AwsClient({ ...creds, service, region: "us-east-1", retries: 0 }).sign("https://sim.test/aws", {
    method: "POST",
    ...init,
  });
  return fetchSim("/aws", { method: "POST", headers: req.headers, body: await req.text() });
};
const sts = (creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }, params: Record<string, string>) =>
  signed("sts", creds, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ Version: "2011-06-15", ...params }).toString(),
  });
const costs = (creds: { accessKeyId: string; secretAccessKey: string }, body: Record<string, unknown>) =>
  signed("ce", creds, {
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AWSInsightsIndexService.GetCostAndUsage" },
    body: JSON.stringify({ Granularity: "DAILY", Metrics: ["UnblendedCost"], GroupBy: [{ Type: "DIMENSION", Key: "SERVICE" }], ...body }),
  });
const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

describe("simulated AWS", () => {
  it("refuses unsigned requests, a wrong credential scope and the invalid test key", async () => {
    const unsigned = await fetchSim("/aws", { method: "POST", body: "Action=GetCallerIdentity&Version=2011-06-15" });
    expect(unsigned.status).toBe(403);
    expect(tag(await unsigned.text(), "Code")).toBe("MissingAuthenticationToken");
    const creds = { accessKeyId: keyId(), secretAccessKey: "secret-secret-secret" };
    const wrongScope = await signed("ce", creds, { body: "Action=GetCallerIdentity&Version=2011-06-15" });
    expect(tag(await wrongScope.text(), "Code")).toBe("SignatureDoesNotMatch");
    const invalid = await sts({ accessKeyId: "AKIAINVALIDTESTKEY00", secretAccessKey: "x".repeat(20) }, { Action: "GetCallerIdentity" });
    expect(invalid.status).toBe(403);
    expect(tag(await invalid.text(), "Code")).toBe("InvalidClientTokenId");
    const ce = await costs(
      { accessKeyId: "AKIAINVALIDTESTKEY00", secretAccessKey: "x".repeat(20) },
      { TimePeriod: { Start: "2026-01-01", End: "2026-01-02" } },
    );
    expect(ce.status).toBe(400);
    expect(((await ce.json()) as { __type: string }).__type).toBe("UnrecognizedClientException");
  });

  it("answers the key's account, and the role's after AssumeRole (refused for 000000000000 or without an external id)", async () => {
    const creds = { accessKeyId: keyId(), secretAccessKey: "secret-secret-secret" };
    const who = await sts(creds, { Action: "GetCallerIdentity" });
    expect(who.status).toBe(200);
    expect(tag(await who.text(), "Account")).toMatch(/^[1-9]\d{11}$/);
    const assumed = await sts(creds, {
      Action: "AssumeRole",
      RoleArn: "arn:aws:iam::123456789012:role/Reader",
      RoleSessionName: "s1",
      ExternalId: "x1",
    });
    const xml = await assumed.text();
    const temp = {
      accessKeyId: tag(xml, "AccessKeyId") ?? "",
      secretAccessKey: tag(xml, "SecretAccessKey") ?? "",
      sessionToken: tag(xml, "SessionToken") ?? "",
    };
    expect(temp.accessKeyId).toMatch(/^ASIA/);
    expect(tag(await (await sts(temp, { Action: "GetCallerIdentity" })).text(), "Account")).toBe("123456789012");
    const denied = await sts(creds, {
      Action: "AssumeRole",
      RoleArn: "arn:aws:iam::000000000000:role/Reader",
      RoleSessionName: "s1",
      ExternalId: "x1",
    });
    expect(tag(await denied.text(), "Code")).toBe("AccessDenied");
    const noExternalId = await sts(creds, {
      Action: "AssumeRole",
      RoleArn: "arn:aws:iam::123456789012:role/Reader",
      RoleSessionName: "s1",
    });
    expect(tag(await noExternalId.text(), "Code")).toBe("AccessDenied");
  });

  it("pages Cost Explorer 7 days at a time with NextPageToken over the same deterministic history", async () => {
    const creds = { accessKeyId: keyId(), secretAccessKey: "secret-secret-secret" };
    const period = { TimePeriod: { Start: "2026-03-01", End: "2026-03-11" } };
    type Page = {
      ResultsByTime: { TimePeriod: { Start: string }; Groups: { Keys: string[]; Metrics: { UnblendedCost: { Amount: string } } }[] }[];
      NextPageToken?: string;
    };
    const first = (await (await costs(creds, period)).json()) as Page;
    expect(first.ResultsByTime).toHaveLength(7);
    expect(first.NextPageToken).toBeTypeOf("string");
    const second = (await (await costs(creds, { ...period, NextPageToken: first.NextPageToken })).json()) as Page;
    expect(second.ResultsByTime.map((r) => r.TimePeriod.Start)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(second.NextPageToken).toBeUndefined();
    // Route 53 bills on the 1st only; amounts carry 10 decimals and repeat exactly.
    expect(first.ResultsByTime[0]?.Groups.map((g) => g.Keys[0])).toContain("Amazon Route 53");
    expect(first.ResultsByTime[1]?.Groups.map((g) => g.Keys[0])).not.toContain("Amazon Route 53");
    expect(first.ResultsByTime[0]?.Groups[0]?.Metrics.UnblendedCost.Amount).toMatch(/^\d+\.\d{10}$/);
    const again = (await (await costs(creds, period)).json()) as Page;
    expect(again.ResultsByTime).toEqual(first.ResultsByTime);
    const badToken = await costs(creds, { TimePeriod: { Start: "2026-04-01", End: "2026-04-11" }, NextPageToken: first.NextPageToken });
    expect(((await badToken.json()) as { __type: string }).__type).toBe("ValidationException");
  });
});
