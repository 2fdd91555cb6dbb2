// Passthrough: one catalogue operation forwarded to the upstream with the workspace's gateway
// account. Only the catalogue decides the upstream method and path; the client supplies ids (one
// safe path segment each), the query string and the body, never a host, a path or a header.
import type { Permission } from "../lib/permissions";
import { type Principal, requirePermission } from "../access/principal";
import type { Deps } from "../deps";
import { resolveGatewayAccount } from "../gateway/accounts";
import { callUpstream, type UpstreamFile } from "../gateway/client";
import { upstreamFailure } from "../gateway/errors";
import type { CatalogueOperation } from "./catalogue";
import { translateForwarded } from "./upstream-ids";

export interface PassthroughRequest {
  operation: CatalogueOperation;
  /** Path parameters, decoded and already checked to be single safe segments. */
  params: Record<string, string>;
  /** The raw query string without `?`, forwarded byte for byte. */
  query: string;
  /** The request body as received (JSON object or multipart), or null. */
  body: ArrayBuffer | null;
  contentType: string | null;
  /** The path the merchant called, for the call log. */
  surfacePath: string;
}

export interface PassthroughResult {
  status: CatalogueOperation["successStatus"];
  data: unknown;
  /** Set when the upstream answered a document rather than JSON: forwarded as bytes, outside the envelope. */
  file?: UpstreamFile;
  upstream: { status: number; durationMs: number };
}

/** The catalogue's upstream path with each `{name}` replaced by its (URL-encoded) value. */
export function upstreamPathFor(op: CatalogueOperation, params: Record<string, string>): string {
  return op.upstreamPath.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter '${name}' for ${op.operationId}`);
    return encodeURIComponent(value);
  });
}

export async function forwardPassthrough(deps: Deps, principal: Principal, request: PassthroughRequest): Promise<PassthroughResult> {
  const op = request.operation;
  requirePermission(principal, op.permission as Permission);
  // The credential lookup and the id translation are independent reads: run them together.
  const sendsBody = op.bodyRequired && request.body !== null;
  const [credentials, forwarded] = await Promise.all([
    resolveGatewayAccount(deps, principal),
    translateForwarded(deps, principal, {
      params: request.params,
      query: request.query,
      body: sendsBody ? request.body : null,
      contentType: request.contentType,
    }),
  ]);
  const result = await callUpstream(deps, credentials, {
    operationId: op.operationId,
    method: op.upstreamMethod,
    path: upstreamPathFor(op, forwarded.params),
    query: forwarded.query,
    body: forwarded.body,
    ...(sendsBody && request.contentType ? { contentType: request.contentType } : {}),
    surfacePath: request.surfacePath,
  });
  const failure = upstreamFailure(result.status, result.body, result.headers);
  if (failure) throw failure;
  const upstream = { status: result.status, durationMs: result.durationMs };
  return { status: op.successStatus, data: result.body, ...(result.file ? { file: result.file } : {}), upstream };
}
