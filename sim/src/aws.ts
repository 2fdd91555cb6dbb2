// A small AWS for Ponte's aws-connections, under /aws on the simulator: STS (AssumeRole,
// GetCallerIdentity: the query API, form body, XML answers) and Cost Explorer (GetCostAndUsage: JSON
// 1.1 behind X-Amz-Target, paged by NextPageToken) over a deterministic cost history per account.
// Requests must carry a SigV4 Authorization header of the right shape (the signature itself is not
// checked: the simulator does not know the secrets). Test values:
//   access key id AKIAINVALIDTESTKEY00 → invalid credentials (STS InvalidClientTokenId, CE UnrecognizedClientException);
//   a role in account 000000000000 → AssumeRole AccessDenied; AssumeRole without ExternalId → AccessDenied.
import { addDays, isDateString, isObject, isoDate, json, randomAlphanumeric } from "./http";

export const INVALID_TEST_ACCESS_KEY_ID = "AKIAINVALIDTESTKEY00";
export const DENIED_ACCOUNT_ID = "000000000000";
/** Days of ResultsByTime per GetCostAndUsage page. */
export const COST_PAGE_DAYS = 7;

const STS_NS = "https://sts.amazonaws.com/doc/2011-06-15/";
const AUTH_RE =
  /^AWS4-HMAC-SHA256 Credential=([A-Z0-9]{16,128})\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const KEY_RE = /^(AKIA|ASIA)[A-Z0-9]{16}$/;
const ROLE_ARN_RE = /^arn:aws:iam::(\d{12}):role\/([\w+=,.@/-]{1,64})$/;

/** One request as the simulator saw it, per AWS account (GET /__sim/aws/requests?accountId=). */
export interface AwsRecordedRequest {
  api: "sts" | "ce";
  action: string;
  accessKeyId: string;
  body: unknown;
  receivedAt: string;
}

interface Caller {
  accessKeyId: string;
  accountId: string;
  arn: string;
  userId: string;
}

const sessions = new Map<string, Caller>();
const overrides = new Map<string, string | null>();
const requestLog = new Map<string, AwsRecordedRequest[]>();

/** FNV-1a over the text, as an unsigned 32-bit number: the seed of every deterministic figure here. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The 12-digit account an access key id belongs to (never the denied test account). */
export function accountOfKey(accessKeyId: string): string {
  const digits = `${hash32(accessKeyId)}${hash32(`${accessKeyId}#2`)}`.padEnd(12, "7").slice(0, 12);
  return digits === DENIED_ACCOUNT_ID ? "100000000000" : digits.replace(/^0/, "1");
}

class AwsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const xml = (body: string, status = 200) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, { status, headers: { "content-type": "text/xml" } });
const requestIdXml = () => `<ResponseMetadata><RequestId>${crypto.randomUUID()}</RequestId></ResponseMetadata>`;

function stsError(err: AwsError): Response {
  return xml(
    `<ErrorResponse xmlns="${STS_NS}"><Error><Type>Sender</Type><Code>${err.code}</Code><Message>${xmlEscape(err.message)}</Message></Error><RequestId>${crypto.randomUUID()}</RequestId></ErrorResponse>`,
    err.status,
  );
}

function ceError(err: AwsError): Response {
  return json({ __type: err.code, message: err.message }, err.status, { "content-type": "application/x-amz-json-1.1" });
}

/** Checks the SigV4 header's shape and the credential scope; answers who is calling. */
function authenticate(request: Request, service: "sts" | "ce"): Caller {
  const auth = request.headers.get("authorization");
  if (!auth) throw new AwsError(403, "MissingAuthenticationToken", "Request is missing Authentication Token");
  const m = AUTH_RE.exec(auth);
  if (!m)
    throw new AwsError(
      403,
      "IncompleteSignature",
      "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' (AWS4-HMAC-SHA256).",
    );
  const [, keyId = "", scopeDate = "", , scopeService = "", signedHeaders = ""] = m;
  const amzDate = request.headers.get("x-amz-date") ?? "";
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== scopeDate)
    throw new AwsError(403, "IncompleteSignature", "X-Amz-Date is missing or does not match the credential scope's date.");
  const signed = signedHeaders.split(";");
  if (!signed.includes("host") || !signed.includes("x-amz-date"))
    throw new AwsError(403, "IncompleteSignature", "SignedHeaders must include host and x-amz-date.");
  if (scopeService !== service)
    throw new AwsError(403, "SignatureDoesNotMatch", `Credential should be scoped to correct service: '${service}'.`);
  if (keyId === INVALID_TEST_ACCESS_KEY_ID || !KEY_RE.test(keyId))
    throw new AwsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.");
  if (keyId.startsWith("ASIA")) {
    const session = sessions.get(keyId);
    const token = request.headers.get("x-amz-security-token");
    if (!session || !token || !signed.includes("x-amz-security-token"))
      throw new AwsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.");
    return session;
  }
  const accountId = accountOfKey(keyId);
  return { accessKeyId: keyId, accountId, arn: `arn:aws:iam::${accountId}:user/ponte-sim`, userId: `AIDA${keyId.slice(4)}` };
}

function record(accountId: string, entry: AwsRecordedRequest) {
  const list = requestLog.get(accountId) ?? [];
  list.push(entry);
  requestLog.set(accountId, list);
}

async function handleSts(request: Request): Promise<Response> {
  const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
  const action = form.get("Action") ?? "";
  try {
    const caller = authenticate(request, "sts");
    record(caller.accountId, {
      api: "sts",
      action,
      accessKeyId: caller.accessKeyId,
      body: Object.fromEntries(form),
      receivedAt: new Date().toISOString(),
    });
    if (form.get("Version") !== "2011-06-15") throw new AwsError(400, "InvalidParameterValue", "Version must be 2011-06-15.");
    if (action === "GetCallerIdentity")
      return xml(
        `<GetCallerIdentityResponse xmlns="${STS_NS}"><GetCallerIdentityResult><Arn>${xmlEscape(caller.arn)}</Arn><UserId>${caller.userId}</UserId><Account>${caller.accountId}</Account></GetCallerIdentityResult>${requestIdXml()}</GetCallerIdentityResponse>`,
      );
    if (action === "AssumeRole") return assumeRole(caller, form);
    throw new AwsError(400, "InvalidAction", `Could not find operation ${action} for version 2011-06-15`);
  } catch (err) {
    if (err instanceof AwsError) return stsError(err);
    throw err;
  }
}

function assumeRole(caller: Caller, form: URLSearchParams): Response {
  const roleArn = form.get("RoleArn") ?? "";
  const sessionName = form.get("RoleSessionName") ?? "";
  const m = ROLE_ARN_RE.exec(roleArn);
  if (!m) throw new AwsError(400, "ValidationError", `${roleArn || "RoleArn"} is invalid`);
  if (!/^[\w+=,.@-]{2,64}$/.test(sessionName)) throw new AwsError(400, "ValidationError", "RoleSessionName is invalid");
  const [, accountId = "", roleName = ""] = m;
  const denied = () =>
    new AwsError(403, "AccessDenied", `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`);
  if (accountId === DENIED_ACCOUNT_ID) throw denied();
  // Every simulated role's trust policy requires an external id (the confused-deputy guard).
  if (!form.get("ExternalId")) throw denied();
  const keyId = `ASIA${accountId}${randomAlphanumeric(4).toUpperCase()}`;
  const arn = `arn:aws:sts::${accountId}:assumed-role/${roleName}/${sessionName}`;
  const roleId = `AROA${String(hash32(roleArn)).padStart(16, "0").slice(0, 16)}`;
  sessions.set(keyId, { accessKeyId: keyId, accountId, arn, userId: `${roleId}:${sessionName}` });
  const expiration = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return xml(
    `<AssumeRoleResponse xmlns="${STS_NS}"><AssumeRoleResult><Credentials><AccessKeyId>${keyId}</AccessKeyId><SecretAccessKey>${randomAlphanumeric(40)}</SecretAccessKey><SessionToken>${randomAlphanumeric(120)}</SessionToken><Expiration>${expiration}</Expiration></Credentials><AssumedRoleUser><Arn>${xmlEscape(arn)}</Arn><AssumedRoleId>${roleId}:${xmlEscape(sessionName)}</AssumedRoleId></AssumedRoleUser></AssumeRoleResult>${requestIdXml()}</AssumeRoleResponse>`,
  );
}

/** The services of the simulated bill: base daily cost in hundred-millionths of a dollar, and ± spread in basis points. */
const SERVICES: readonly { name: string; base: bigint; spreadBps: number; monthly?: boolean }[] = [
  { name: "Amazon Elastic Compute Cloud - Compute", base: 3_800_000_000n, spreadBps: 3000 },
  { name: "Amazon Relational Database Service", base: 2_150_000_000n, spreadBps: 1000 },
  { name: "Amazon Simple Storage Service", base: 420_000_000n, spreadBps: 2000 },
  { name: "Amazon CloudFront", base: 680_000_000n, spreadBps: 4000 },
  { name: "AWS Lambda", base: 135_000_000n, spreadBps: 5000 },
  { name: "AmazonCloudWatch", base: 210_000_000n, spreadBps: 2500 },
  // A hosted zone is billed once a month, on the 1st.
  { name: "Amazon Route 53", base: 50_000_000n, spreadBps: 0, monthly: true },
];

/** An account's cost of one service on one day, as AWS writes it ("12.3456789012"), or null when it has none. */
export function dailyCost(accountId: string, day: string, service: (typeof SERVICES)[number]): string | null {
  const override = overrides.get(`${accountId}|${day}|${service.name}`);
  if (override !== undefined) return override;
  if (service.monthly && !day.endsWith("-01")) return null;
  const scale = BigInt(50 + (hash32(`scale:${accountId}`) % 151)); // 0.50×–2.00× per account
  const h = hash32(`${accountId}|${day}|${service.name}`);
  const spread = service.spreadBps === 0 ? 0 : (h % (2 * service.spreadBps + 1)) - service.spreadBps;
  // In 1e-10 dollars: base (1e-8) × 100 × scale/100 × (1 + spread/10000), plus sub-cent noise.
  const units = (service.base * scale * BigInt(10_000 + spread)) / 10_000n + BigInt(hash32(`noise:${h}`) % 1_000_000);
  const text = units.toString().padStart(11, "0");
  return `${text.slice(0, -10)}.${text.slice(-10)}`;
}

/** The bill of one account on one day, as this isolate knows it (the default history plus control-API changes). */
export function costsOf(accountId: string, day: string): { service: string; amount: string }[] {
  const names = new Set(SERVICES.map((s) => s.name));
  const out: { service: string; amount: string }[] = [];
  for (const s of SERVICES) {
    const amount = dailyCost(accountId, day, s);
    if (amount !== null) out.push({ service: s.name, amount });
  }
  // Services added through the control API that the default bill does not have.
  for (const [key, amount] of overrides) {
    const [acct, d, service = ""] = key.split("|");
    if (acct === accountId && d === day && !names.has(service) && amount !== null) out.push({ service, amount });
  }
  return out;
}

async function handleCostExplorer(request: Request, target: string): Promise<Response> {
  try {
    const caller = authenticate(request, "ce");
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(await request.arrayBuffer()));
    } catch {
      throw new AwsError(400, "SerializationException", "Request body is not valid JSON.");
    }
    record(caller.accountId, { api: "ce", action: target, accessKeyId: caller.accessKeyId, body, receivedAt: new Date().toISOString() });
    if (target !== "AWSInsightsIndexService.GetCostAndUsage")
      throw new AwsError(400, "UnknownOperationException", `Unknown operation ${target}`);
    return json(getCostAndUsage(caller.accountId, isObject(body) ? body : {}), 200, { "content-type": "application/x-amz-json-1.1" });
  } catch (err) {
    if (err instanceof AwsError)
      return ceError(err.code === "InvalidClientTokenId" ? new AwsError(400, "UnrecognizedClientException", err.message) : err);
    throw err;
  }
}

function getCostAndUsage(accountId: string, body: Record<string, unknown>) {
  const period = isObject(body.TimePeriod) ? body.TimePeriod : {};
  const start = period.Start;
  const end = period.End;
  if (!isDateString(start) || !isDateString(end) || start >= end)
    throw new AwsError(400, "ValidationException", "TimePeriod needs Start < End, both YYYY-MM-DD (End exclusive).");
  if (body.Granularity !== "DAILY") throw new AwsError(400, "ValidationException", "The simulator serves Granularity DAILY only.");
  const metrics = Array.isArray(body.Metrics) ? body.Metrics.filter((m): m is string => typeof m === "string") : [];
  if (metrics.length === 0 || metrics.some((m) => m !== "UnblendedCost" && m !== "BlendedCost"))
    throw new AwsError(400, "ValidationException", "Metrics must be UnblendedCost and/or BlendedCost.");
  const groupBy = Array.isArray(body.GroupBy) ? body.GroupBy : [];
  const byService = groupBy.length === 1 && isObject(groupBy[0]) && groupBy[0].Type === "DIMENSION" && groupBy[0].Key === "SERVICE";
  if (groupBy.length > 0 && !byService) throw new AwsError(400, "ValidationException", "The simulator groups by DIMENSION SERVICE only.");
  const days: string[] = [];
  for (let d = start; d < end; d = addDays(d, 1)) {
    days.push(d);
    if (days.length > 400) throw new AwsError(400, "ValidationException", "TimePeriod is longer than the 14 months Cost Explorer keeps.");
  }
  let offset = 0;
  if (body.NextPageToken !== undefined) {
    const token = typeof body.NextPageToken === "string" ? body.NextPageToken : "";
    const m = /^p([0-9]+)\.(\d{4}-\d{2}-\d{2})\.(\d{4}-\d{2}-\d{2})$/.exec(atobSafe(token));
    if (!m || m[2] !== start || m[3] !== end) throw new AwsError(400, "ValidationException", "Invalid NextPageToken");
    offset = Number(m[1]);
  }
  const today = isoDate();
  const page = days.slice(offset, offset + COST_PAGE_DAYS);
  const metric = (amount: string) => Object.fromEntries(metrics.map((m) => [m, { Amount: amount, Unit: "USD" }]));
  const ResultsByTime = page.map((day) => {
    const costs = day <= today ? costsOf(accountId, day) : [];
    const total = costs
      .reduce((sum, c) => sum + BigInt(c.amount.replace(".", "")), 0n)
      .toString()
      .padStart(11, "0");
    return {
      TimePeriod: { Start: day, End: addDays(day, 1) },
      Total: byService ? {} : metric(`${total.slice(0, -10)}.${total.slice(-10)}`),
      Groups: byService ? costs.map((c) => ({ Keys: [c.service], Metrics: metric(c.amount) })) : [],
      Estimated: day >= addDays(today, -1),
    };
  });
  const next = offset + COST_PAGE_DAYS < days.length ? btoa(`p${offset + COST_PAGE_DAYS}.${start}.${end}`) : undefined;
  return {
    GroupDefinitions: byService ? [{ Type: "DIMENSION", Key: "SERVICE" }] : [],
    ResultsByTime,
    DimensionValueAttributes: [],
    ...(next ? { NextPageToken: next } : {}),
  };
}

function atobSafe(text: string): string {
  try {
    return atob(text);
  } catch {
    return "";
  }
}

/** Requests under /aws: Cost Explorer when X-Amz-Target is set, STS otherwise. */
export async function handleAws(request: Request): Promise<Response> {
  if (request.method !== "POST") return new Response("Only POST", { status: 405, headers: { allow: "POST" } });
  const target = request.headers.get("x-amz-target");
  return target ? handleCostExplorer(request, target) : handleSts(request);
}

/**
 * Control API for the AWS side (no token): `GET /__sim/aws/requests?accountId=` (oldest first),
 * `POST /__sim/aws/costs {accountId, day, service, amount}` (amount a decimal string, or null: no cost
 * that day) to change the history, `DELETE /__sim/aws/costs?accountId=` back to the default.
 */
export async function handleAwsControl(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, "");
  const accountId = url.searchParams.get("accountId") ?? "";
  if (path === "/__sim/aws/requests" && request.method === "GET") return json({ data: requestLog.get(accountId) ?? [] });
  if (path === "/__sim/aws/requests" && request.method === "DELETE") {
    requestLog.delete(accountId);
    return json({ ok: true });
  }
  if (path === "/__sim/aws/account" && request.method === "GET")
    return json({ accountId: accountOfKey(url.searchParams.get("accessKeyId") ?? "") });
  if (path === "/__sim/aws/costs" && request.method === "POST") {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return json({ error: "Body must be JSON" }, 400);
    }
    const b = isObject(body) ? body : {};
    const amount = b.amount === null ? null : typeof b.amount === "string" && /^\d+(\.\d+)?$/.test(b.amount) ? b.amount : undefined;
    if (typeof b.accountId !== "string" || !isDateString(b.day) || typeof b.service !== "string" || amount === undefined)
      return json({ error: "Give accountId, day (YYYY-MM-DD), service and amount (decimal string or null)" }, 400);
    overrides.set(`${b.accountId}|${b.day}|${b.service}`, amount);
    return json({ ok: true }, 201);
  }
  if (path === "/__sim/aws/costs" && request.method === "DELETE") {
    for (const key of [...overrides.keys()]) if (key.startsWith(`${accountId}|`)) overrides.delete(key);
    return json({ ok: true });
  }
  return json({ error: `No control route ${request.method} ${path}` }, 404);
}
