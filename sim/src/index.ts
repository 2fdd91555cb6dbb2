// Ponte's upstream simulator: a worker that behaves like the provider's (Asaas v3) sandbox.
import { handleAws, handleAwsControl } from "./aws";
import { handleControl } from "./control";
import type { PendingEvent, SimContext, SimEnv } from "./context";
import { hang, sleep, statusFaultResponse, takeFault } from "./faults";
import { CATALOGUE_HANDLERS } from "./catalogue-table";
import { errorResponse, json, UpstreamError } from "./http";
import { resolve } from "./routes";
import { getAccount, type Account } from "./state";
import { deliverEvents } from "./webhooks";

export type { SimEnv } from "./context";

const TOKEN_PREFIX = "$aact_";

function bodyText(bytes: ArrayBuffer): string {
  return new TextDecoder().decode(bytes);
}

async function parseBody(request: Request, bytes: ArrayBuffer): Promise<{ body: unknown; form?: FormData } | Response> {
  const type = request.headers.get("content-type") ?? "";
  if (bytes.byteLength === 0) return { body: undefined };
  if (type.includes("multipart/form-data")) {
    const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
    return { body: undefined, form };
  }
  const text = bodyText(bytes);
  if (type.includes("application/json") || /^\s*[{[]/.test(text)) {
    try {
      return { body: JSON.parse(text) };
    } catch {
      return errorResponse(400, "invalid_json", "O corpo da requisição não é um JSON válido.");
    }
  }
  return { body: text };
}

function record(account: Account, request: Request, url: URL, bytes: ArrayBuffer): void {
  account.requests.push({
    method: request.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    headers: Object.fromEntries(request.headers),
    body: bodyText(bytes),
    receivedAt: new Date().toISOString(),
  });
}

async function handleUpstream(request: Request, env: SimEnv, exec: ExecutionContext): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const token = request.headers.get("access_token") ?? "";
  const account = getAccount(token);
  const bytes = await request.arrayBuffer();
  record(account, request, url, bytes);

  const fault = takeFault(account, method, url.pathname);
  if (fault?.fault === "status") return statusFaultResponse(fault);
  if (fault?.fault === "timeout") return hang(account, fault.delayMs);
  if (fault?.fault === "network") throw new Error("simulated network failure");
  if (fault?.fault === "delay") await sleep(fault.delayMs ?? 1000);

  // CloudFront in front of the upstream refuses GET requests that carry a body.
  if ((method === "GET" || method === "HEAD") && bytes.byteLength > 0) {
    return new Response("<html><body><h1>403 ERROR</h1><p>The request could not be satisfied.</p></body></html>", {
      status: 403,
      headers: { "content-type": "text/html" },
    });
  }
  if (!token.startsWith(TOKEN_PREFIX) || token.length <= TOKEN_PREFIX.length) {
    return errorResponse(401, "invalid_access_token", "A chave de API fornecida é inválida");
  }

  const resolved = resolve(method, url.pathname);
  if (resolved.kind === "none") return errorResponse(404, "not_found", `Recurso não encontrado: ${method} ${url.pathname}`);
  const parsed = await parseBody(request, bytes);
  if (parsed instanceof Response) return parsed;

  const ctx: SimContext = {
    account,
    env,
    method,
    path: url.pathname,
    params: resolved.params,
    query: url.searchParams,
    body: parsed.body,
    form: parsed.form,
    origin: url.origin,
    events: [],
    operation: resolved.operation,
  };
  const handler = CATALOGUE_HANDLERS[resolved.operation.operationId];
  // Every catalogue operation has a handler (checked by sim/test/catalogue-walk.test.ts); never answer a made-up body.
  if (!handler) return errorResponse(501, "not_simulated", `O simulador não implementa ${method} ${url.pathname}.`);
  let response: Response;
  try {
    const result = await handler(ctx);
    response = result instanceof Response ? result : json(result);
  } catch (err) {
    if (err instanceof UpstreamError) return err.toResponse();
    console.error("sim handler error", method, url.pathname, err instanceof Error ? err.message : err);
    return errorResponse(500, "internal_error", "Erro interno do simulador.");
  }
  await deliver(env, exec, ctx.events, () => deliverEvents(env, account, ctx.events));
  return response;
}

/** Sync delivery (default) awaits webhooks before answering, so tests are deterministic. */
async function deliver(env: SimEnv, exec: ExecutionContext, events: PendingEvent[], run: () => Promise<void>): Promise<void> {
  if (events.length === 0) return;
  if ((env.WEBHOOK_DELIVERY ?? "sync") === "sync") await run();
  else exec.waitUntil(run());
}

export default {
  async fetch(request: Request, env: SimEnv, exec: ExecutionContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/__sim/aws/")) return handleAwsControl(request);
    if (pathname === "/aws" || pathname.startsWith("/aws/")) return handleAws(request);
    if (pathname === "/__sim" || pathname.startsWith("/__sim/")) {
      return handleControl(request, env, (events, run) => deliver(env, exec, events, run));
    }
    return handleUpstream(request, env, exec);
  },
} satisfies ExportedHandler<SimEnv>;
