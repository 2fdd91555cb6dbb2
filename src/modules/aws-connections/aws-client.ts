// The calls Ponte makes to AWS: STS (GetCallerIdentity, AssumeRole; query API, XML answers) and Cost
// Explorer (GetCostAndUsage; JSON 1.1), each request signed with SigV4 by aws4fetch. Where they go:
// AWS's own hosts, or AWS_ENDPOINT for both (the simulator's /aws locally; a `.internal` host is
// reached through the UPSTREAM service binding and never dialled). Secrets never appear in errors.
import { AwsClient } from "aws4fetch";
import type { Env } from "../../config";
import { USER_AGENT } from "../../gateway/client";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** AWS said no, or could not be reached: `code` is AWS's error code (or Ponte's for a transport failure). */
export class AwsCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
  /** What `lastError` stores: the code and AWS's message, bounded. */
  get summary(): string {
    return `${this.code}: ${this.message}`.slice(0, 500);
  }
}

const REGION = "us-east-1";
const TIMEOUT_MS = 20_000;
const AWS_HOSTS = { sts: "https://sts.amazonaws.com/", ce: "https://ce.us-east-1.amazonaws.com/" } as const;

function endpointOf(env: Env, service: "sts" | "ce"): string {
  return env.AWS_ENDPOINT?.trim() || AWS_HOSTS[service];
}

function fetcherFor(env: Env, url: string): (req: Request) => Promise<Response> {
  const sim = env.UPSTREAM;
  if (sim && new URL(url).hostname.endsWith(".internal")) return (req) => sim.fetch(req);
  return (req) => fetch(req);
}

async function send(env: Env, creds: AwsCredentials, service: "sts" | "ce", headers: Record<string, string>, body: string) {
  const url = endpointOf(env, service);
  const client = new AwsClient({ ...creds, service, region: REGION, retries: 0 });
  const request = await client.sign(url, { method: "POST", headers: { ...headers, "User-Agent": USER_AGENT }, body });
  let timer: ReturnType<typeof setTimeout> | null = null;
  try {
    const response = await Promise.race([
      fetcherFor(env, url)(request),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AwsCallError("Timeout", `AWS did not answer within ${TIMEOUT_MS / 1000} s.`, null)),
          TIMEOUT_MS,
        );
      }),
    ]);
    return { status: response.status, text: await response.text() };
  } catch (err) {
    if (err instanceof AwsCallError) throw err;
    throw new AwsCallError("NetworkError", `Could not reach AWS ${service.toUpperCase()}.`, null);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}

const xmlDecode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
const tag = (xml: string, name: string) => {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return m ? xmlDecode(m[1] ?? "") : null;
};

async function sts(env: Env, creds: AwsCredentials, params: Record<string, string>): Promise<string> {
  const form = new URLSearchParams({ ...params, Version: "2011-06-15" }).toString();
  const { status, text } = await send(env, creds, "sts", { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" }, form);
  if (status >= 200 && status < 300) return text;
  throw new AwsCallError(tag(text, "Code") ?? `HTTP${status}`, tag(text, "Message") ?? `STS answered ${status}.`, status);
}

/** STS GetCallerIdentity: the 12-digit account the credentials belong to. */
export async function getCallerIdentity(env: Env, creds: AwsCredentials): Promise<{ accountId: string; arn: string | null }> {
  const xml = await sts(env, creds, { Action: "GetCallerIdentity" });
  const accountId = tag(xml, "Account");
  if (!accountId || !/^\d{12}$/.test(accountId)) throw new AwsCallError("MalformedResponse", "STS answered without an account id.", 200);
  return { accountId, arn: tag(xml, "Arn") };
}

/** STS AssumeRole with Ponte's platform credentials: temporary credentials for the merchant's role. */
export async function assumeRole(env: Env, roleArn: string, externalId: string, sessionName: string): Promise<AwsCredentials> {
  const accessKeyId = env.AWS_PLATFORM_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_PLATFORM_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new AwsCallError(
      "PlatformCredentialsMissing",
      "This deployment has no AWS platform credentials (AWS_PLATFORM_ACCESS_KEY_ID / AWS_PLATFORM_SECRET_ACCESS_KEY) to assume roles with.",
      null,
    );
  const xml = await sts(
    env,
    { accessKeyId, secretAccessKey },
    { Action: "AssumeRole", RoleArn: roleArn, RoleSessionName: sessionName, ExternalId: externalId, DurationSeconds: "900" },
  );
  const creds = {
    accessKeyId: tag(xml, "AccessKeyId"),
    secretAccessKey: tag(xml, "SecretAccessKey"),
    sessionToken: tag(xml, "SessionToken"),
  };
  if (!creds.accessKeyId || !creds.secretAccessKey || !creds.sessionToken)
    throw new AwsCallError("MalformedResponse", "STS AssumeRole answered without credentials.", 200);
  return { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken };
}

export interface CostGroup {
  Keys?: string[];
  Metrics?: Record<string, { Amount?: string; Unit?: string }>;
}
export interface CostAndUsagePage {
  ResultsByTime?: { TimePeriod?: { Start?: string; End?: string }; Groups?: CostGroup[]; Estimated?: boolean }[];
  NextPageToken?: string;
}

/** One page of Cost Explorer GetCostAndUsage: UnblendedCost, DAILY, grouped by SERVICE; `end` exclusive. */
export async function getCostAndUsagePage(
  env: Env,
  creds: AwsCredentials,
  start: string,
  end: string,
  nextPageToken?: string,
): Promise<CostAndUsagePage> {
  const body = JSON.stringify({
    TimePeriod: { Start: start, End: end },
    Granularity: "DAILY",
    Metrics: ["UnblendedCost"],
    GroupBy: [{ Type: "DIMENSION", Key: "SERVICE" }],
    ...(nextPageToken ? { NextPageToken: nextPageToken } : {}),
  });
  const headers = { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AWSInsightsIndexService.GetCostAndUsage" };
  const { status, text } = await send(env, creds, "ce", headers, body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const obj = (parsed ?? {}) as Record<string, unknown>;
  if (status < 200 || status >= 300) {
    const type = typeof obj.__type === "string" ? (obj.__type.split("#").pop() ?? obj.__type) : `HTTP${status}`;
    const message =
      typeof obj.message === "string" ? obj.message : typeof obj.Message === "string" ? obj.Message : `Cost Explorer answered ${status}.`;
    throw new AwsCallError(type, message, status);
  }
  if (parsed === null || typeof parsed !== "object")
    throw new AwsCallError("MalformedResponse", "Cost Explorer answered something other than JSON.", status);
  return parsed as CostAndUsagePage;
}
