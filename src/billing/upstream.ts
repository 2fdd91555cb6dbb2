// Native billing's side of the gateway: the workspace's credentials, one call, upstream errors mapped.
import { keyEnvironmentFor } from "../config";
import type { Deps } from "../deps";
import { resolveGatewayAccount, type GatewayCredentials } from "../gateway/accounts";
import { callUpstream, type UpstreamResult } from "../gateway/client";
import { upstreamFailure } from "../gateway/errors";
import type { ApiError } from "../http/errors";
import { tenantOf, type Tenant } from "../lib/tenant";

export type { GatewayCredentials };

/** Credentials for a tenant outside a request (sweeper, webhooks): the host environment's account. */
export function credentialsFor(deps: Deps, tenant: Tenant): Promise<GatewayCredentials> {
  return resolveGatewayAccount(deps, { ...tenantOf(tenant), environment: keyEnvironmentFor(deps.env.ENVIRONMENT) });
}

export interface NativeCall {
  /** `native:<flow>`, recorded in the gateway call log. */
  flow: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: string;
  body?: unknown;
  surfacePath?: string;
}

export async function upstreamRaw(deps: Deps, credentials: GatewayCredentials, call: NativeCall): Promise<UpstreamResult> {
  return callUpstream(deps, credentials, {
    operationId: `native:${call.flow}`,
    method: call.method,
    path: call.path,
    ...(call.query ? { query: call.query } : {}),
    ...(call.body !== undefined ? { body: JSON.stringify(call.body), contentType: "application/json" } : {}),
    ...(call.surfacePath ? { surfacePath: call.surfacePath } : {}),
    ...(deps.upstreamTimeoutMs ? { timeoutMs: deps.upstreamTimeoutMs } : {}),
  });
}

/** The upstream's JSON on success; throws the mapped ApiError otherwise (timeouts throw from the client). */
export async function upstreamJson<T = Record<string, unknown>>(deps: Deps, credentials: GatewayCredentials, call: NativeCall): Promise<T> {
  const result = await upstreamRaw(deps, credentials, call);
  const failure = upstreamFailure(result.status, result.body, result.headers);
  if (failure) throw failure;
  return result.body as T;
}

/** Errors after which the upstream may still have acted: the record stays pending for the sweeper. */
export function isAmbiguousFailure(err: ApiError): boolean {
  return (
    err.code === "UPSTREAM_TIMEOUT" || (err.code === "UPSTREAM_ERROR" && ((err.details.upstreamStatus as number | undefined) ?? 500) >= 500)
  );
}

/** Upstream error items (code/description) from a mapped ApiError. */
export function upstreamErrorItems(err: ApiError): { code?: string; description?: string }[] {
  return Array.isArray(err.details.errors) ? (err.details.errors as { code?: string; description?: string }[]) : [];
}
