// `npm run listen`: a temporary webhook endpoint for one run whose deliveries are re-posted to a local URL,
// signed like the worker signs them (src/events/signature.ts). The pieces are exported for test/unit/listen.test.ts.
//
// Transport `http` (the default, for `npm start`): a receiver on 127.0.0.1 is registered as the endpoint's URL
// (only the `local` environment accepts http://127.0.0.1), so the worker's ordinary delivery path reaches it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

export const SIGNATURE_HEADER = "X-Service-Signature";
const TOLERANCE_SECONDS = 300;

// The product event kinds: the worker's own table, imported (the pinned Node 22 strips the types of a .ts module).
import { EVENT_KINDS } from "../../src/events/kinds.ts";

export { EVENT_KINDS };

export const USAGE = `Usage: npm run listen -- --forward-to <url> [--events <kind,pattern,…>] [--api <base url>] [--key <api key>]
                          [--organization <id>] [--workspace <id>] [--transport http|ws]

  --forward-to   where each delivery is re-posted (e.g. http://localhost:3000/webhooks)
  --events       exact kinds or patterns: payment.*, subscription.*, upstream.*, * (default *)
  --api          the Ponte base URL (default $PONTE_API or http://localhost:$PORT, PORT 8787)
  --key          an API key with webhook_endpoints.manage (default $PONTE_API_KEY)
  --transport    http: the worker posts to a receiver on this machine (npm start, the local environment);
                 ws: deliveries stream over a WebSocket (a deployed sandbox). Default: http for localhost, else ws.`;

export class UsageError extends Error {}

/** Parses `--name value` / `--name=value` flags; throws UsageError with the reason. */
export function parseListenArgs(argv, env = {}) {
  const flags = {};
  const known = new Set(["forward-to", "events", "api", "key", "organization", "workspace", "transport", "help"]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (!known.has(name)) throw new UsageError(`unknown option --${name}`);
    if (name === "help") throw new UsageError("");
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
    if (name === "events")
      flags.events = [
        ...(flags.events ?? []),
        ...value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ];
    else flags[name] = value;
  }
  if (!flags["forward-to"]) throw new UsageError("--forward-to is required");
  const forwardTo = parseHttpUrl(flags["forward-to"], "--forward-to");
  const api = parseHttpUrl(flags.api ?? env.PONTE_API ?? `http://localhost:${env.PORT ?? 8787}`, "--api").replace(/\/+$/, "");
  const key = flags.key ?? env.PONTE_API_KEY;
  if (!key) throw new UsageError("an API key is required: --key <key> or PONTE_API_KEY (npm start prints one)");
  const events = flags.events ?? ["*"];
  expandEventPatterns(events); // validates
  const transport = flags.transport ?? (isLoopback(new URL(api).hostname) ? "http" : "ws");
  if (transport !== "http" && transport !== "ws") throw new UsageError("--transport must be http or ws");
  return { forwardTo, api, key, events, transport, organizationId: flags.organization, workspaceId: flags.workspace };
}

function parseHttpUrl(raw, flag) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} is not an absolute URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag} must be an http(s) URL`);
  return url.toString();
}

const isLoopback = (host) => host === "localhost" || host === "127.0.0.1" || host === "[::1]";

/**
 * The `eventKinds` to register for the given patterns: `*` and `upstream.*` pass as they are (the API knows
 * them), `payment.*` / `subscription.*` expand to the product kinds they match, exact kinds pass through.
 */
export function expandEventPatterns(patterns) {
  if (patterns.length === 0) throw new UsageError("--events needs at least one kind");
  if (patterns.includes("*")) return ["*"];
  const out = new Set();
  for (const p of patterns) {
    if (p === "upstream.*" || /^upstream\.[A-Z0-9_]+$/.test(p) || EVENT_KINDS.includes(p)) out.add(p);
    else if (/^[a-z]+\.\*$/.test(p)) {
      const matched = EVENT_KINDS.filter((k) => matchesPattern(k, p));
      if (matched.length === 0) throw new UsageError(`--events ${p} matches no event kind (${EVENT_KINDS.join(", ")})`);
      for (const k of matched) out.add(k);
    } else throw new UsageError(`--events ${p} is not an event kind or pattern (${EVENT_KINDS.join(", ")}, upstream.*, *)`);
  }
  return [...out];
}

/** `*` matches everything, `x.*` every kind starting `x.`, anything else only itself. */
export function matchesPattern(kind, pattern) {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return kind.startsWith(pattern.slice(0, -1));
  return kind === pattern;
}

const hmacHex = (secret, timestamp, rawBody) => createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");

/** `t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` keyed by the secret's UTF-8 bytes, as the worker signs. */
export function signatureHeader(secret, rawBody, timestamp = Math.floor(Date.now() / 1000)) {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

/** True when some v1 in the header is the body's HMAC under the secret and t is within 300 s. */
export function signatureValid(secret, rawBody, header, now = Math.floor(Date.now() / 1000)) {
  if (!header) return false;
  const parts = header.split(",").map((p) => p.trim());
  const ts = parts.filter((p) => p.startsWith("t=")).map((p) => p.slice(2));
  if (ts.length !== 1 || !/^[0-9]{1,15}$/.test(ts[0])) return false;
  const t = Number(ts[0]);
  if (Math.abs(now - t) > TOLERANCE_SECONDS) return false;
  const want = Buffer.from(hmacHex(secret, t, rawBody), "hex");
  let ok = false;
  for (const p of parts) {
    if (!p.startsWith("v1=") || !/^[0-9a-f]{64}$/i.test(p.slice(3))) continue;
    ok = timingSafeEqual(want, Buffer.from(p.slice(3), "hex")) || ok;
  }
  return ok;
}

/** The delivery headers a receiver sees, re-signed for `now` with the run's secret. */
const FORWARDED_HEADERS = ["content-type", "user-agent", "x-service-event", "x-service-delivery", "x-service-environment"];

/**
 * Re-posts one delivery (its exact body bytes) to `forwardTo` with a fresh valid signature. Never throws:
 * a network error or timeout is status 0 with its message. Returns what the one-line log prints.
 */
export async function forwardDelivery({ rawBody, headers, secret, forwardTo, fetchImpl = fetch, timeoutMs = 9_000 }) {
  const started = performance.now();
  let kind = header(headers, "x-service-event") ?? "?";
  let eventId = "?";
  try {
    const parsed = JSON.parse(Buffer.from(rawBody).toString("utf8"));
    kind = parsed.type ?? kind;
    eventId = parsed.id ?? eventId;
  } catch {}
  const out = {};
  for (const name of FORWARDED_HEADERS) {
    const value = header(headers, name);
    if (value !== undefined) out[name] = value;
  }
  out[SIGNATURE_HEADER] = signatureHeader(secret, rawBody);
  try {
    const res = await fetchImpl(forwardTo, {
      method: "POST",
      headers: out,
      body: rawBody,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { kind, eventId, status: res.status, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { kind, eventId, status: 0, ms: Math.round(performance.now() - started), error: err?.message ?? String(err) };
  }
}

function header(headers, name) {
  if (typeof headers.get === "function") return headers.get(name) ?? undefined;
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** One line per delivery: time, kind, event id, local status (or the network error), ms. */
export function formatDeliveryLine(r, at = new Date()) {
  const status = r.status === 0 ? `ERR ${r.error ?? "network"}` : String(r.status);
  return `${at.toISOString().slice(11, 19)}  ${r.kind.padEnd(22)} ${r.eventId}  → ${status}  ${r.ms} ms`;
}

/** The status the worker sees for a forwarded delivery: the local one, 502 when the local URL was unreachable. */
export const upstreamStatus = (r) => (r.status >= 200 && r.status < 600 ? r.status : 502);

/** A small client for the API calls listen makes; errors carry the API's error message. */
export function apiClient({ api, key, organizationId, workspaceId, fetchImpl = fetch }) {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  if (organizationId) headers["X-Organization-Id"] = organizationId;
  if (workspaceId) headers["X-Workspace-Id"] = workspaceId;
  const call = async (method, path, body) => {
    const res = await fetchImpl(`${api}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const json = await res.json().catch(() => null);
    if (!res.ok) {
      const message = json?.error?.message ?? `HTTP ${res.status}`;
      throw new Error(`${method} ${path} → ${res.status} ${json?.error?.code ?? ""} ${message}`.replace(/\s+/g, " ").trim());
    }
    return json?.data;
  };
  return {
    headers,
    createEndpoint: (url, eventKinds) =>
      call("POST", "/api/v1/webhook-endpoints", {
        url,
        eventKinds,
        description: `ponte listen (temporary, started ${new Date().toISOString()})`,
      }),
    deleteEndpoint: (id) => call("DELETE", `/api/v1/webhook-endpoints/${id}`),
  };
}

/**
 * Transport http: starts the receiver on 127.0.0.1 (an ephemeral port), registers it as a webhook endpoint,
 * and forwards every delivery whose signature verifies. `close()` deletes the endpoint and stops the receiver.
 */
export async function startHttpListen({ api, key, organizationId, workspaceId, events, forwardTo, log = console.log, fetchImpl = fetch }) {
  const client = apiClient({ api, key, organizationId, workspaceId, fetchImpl });
  let secret = null;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const rawBody = Buffer.concat(chunks);
    if (req.method !== "POST" || secret === null || !signatureValid(secret, rawBody, req.headers[SIGNATURE_HEADER.toLowerCase()])) {
      res.writeHead(401, { "content-type": "text/plain" }).end("signature does not verify");
      return;
    }
    const result = await forwardDelivery({ rawBody, headers: req.headers, secret, forwardTo, fetchImpl });
    log(formatDeliveryLine(result));
    res.writeHead(upstreamStatus(result), { "content-type": "text/plain" }).end(result.error ?? `forwarded: ${result.status}`);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const receiverUrl = `http://127.0.0.1:${server.address().port}/`;
  let endpoint;
  try {
    endpoint = await client.createEndpoint(receiverUrl, expandEventPatterns(events));
  } catch (err) {
    server.close();
    throw err;
  }
  secret = endpoint.secret;
  let closed = false;
  return {
    endpointId: endpoint.id,
    secret,
    receiverUrl,
    eventKinds: endpoint.eventKinds,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
      await client.deleteEndpoint(endpoint.id);
    },
  };
}
