// How upstream answers become Ponte errors: one table for passthrough and native calls alike.
import { ApiError } from "../http/errors";

interface UpstreamErrorItem {
  code?: string;
  description?: string;
}

function upstreamErrors(body: unknown): UpstreamErrorItem[] {
  if (body && typeof body === "object" && Array.isArray((body as { errors?: unknown }).errors)) {
    return (body as { errors: UpstreamErrorItem[] }).errors;
  }
  return [];
}

/** Null for a success (2xx); otherwise the ApiError the merchant sees. Never includes Ponte's upstream key. */
export function upstreamFailure(status: number, body: unknown, headers: Headers): ApiError | null {
  if (status >= 200 && status < 300) return null;
  const errors = upstreamErrors(body);
  const summary = errors
    .map((e) => e.description ?? e.code)
    .filter(Boolean)
    .join("; ");
  const details = { upstreamStatus: status, errors };
  if (status === 400)
    return new ApiError(
      "BAD_REQUEST",
      summary ? `The upstream provider rejected the request: ${summary}` : "The upstream provider rejected the request.",
      details,
    );
  if (status === 404)
    return new ApiError(
      "NOT_FOUND",
      summary ? `Not found at the upstream provider: ${summary}` : "Not found at the upstream provider.",
      details,
    );
  if (status === 401 || status === 403) {
    return new ApiError(
      "UPSTREAM_AUTH_FAILED",
      "The upstream provider refused this workspace's gateway credential; check the gateway account (your Ponte API key is fine).",
      { upstreamStatus: status },
    );
  }
  if (status === 429) {
    const retryAfter = headers.get("Retry-After") ?? headers.get("RateLimit-Reset") ?? "60";
    return new ApiError(
      "RATE_LIMITED",
      "The upstream provider is rate limiting this account; retry later.",
      { upstreamStatus: status, retryAfterSeconds: Number(retryAfter) || 60 },
      { "Retry-After": retryAfter },
    );
  }
  return new ApiError("UPSTREAM_ERROR", `The upstream provider failed (status ${status}).`, { upstreamStatus: status });
}
