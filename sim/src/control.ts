// Control API under /__sim/ for tests and local dev (no access_token; not part of the upstream surface).
import type { Handler, PendingEvent, SimContext, SimEnv } from "./context";
import { clearFaults, parseFault } from "./faults";
import { errorResponse, isObject, json, UpstreamError } from "./http";
import { matchPath } from "./routes";
import { importRecords } from "./import";
import { getAccount } from "./state";
import { payCheckout, payPaymentLink } from "./payment-links";
import { openChargeback, seedReceivedSplit } from "./receivables";
import { advanceSubscription } from "./subscriptions";
import { deliverEvents } from "./webhooks";

/** Actions standing in for what happens outside the API (time passing, a payer paying, records made elsewhere); each sends its webhooks. */
const CONTROL_ACTIONS: readonly [string, Handler][] = [
  ["/__sim/subscriptions/{id}/advance", advanceSubscription],
  ["/__sim/paymentLinks/{id}/pay", payPaymentLink],
  ["/__sim/checkouts/{id}/pay", payCheckout],
  ["/__sim/payments/{id}/chargeback", openChargeback],
  ["/__sim/splits/received", seedReceivedSplit],
  ["/__sim/import", importRecords],
];

export async function handleControl(
  request: Request,
  env: SimEnv,
  deliver: (events: PendingEvent[], run: () => Promise<void>) => Promise<void>,
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, "");
  const method = request.method;
  if (path === "/__sim/health" && method === "GET") return json({ ok: true });

  let body: unknown;
  if (method === "POST" || method === "PUT") {
    const text = await request.text();
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return errorResponse(400, "invalid_json", "Body must be JSON");
    }
  }
  const token = url.searchParams.get("token") ?? (isObject(body) && typeof body.token === "string" ? body.token : null);
  if (!token)
    return errorResponse(400, "missing_token", "Pass the account's access token as ?token= (or in the body for POST /__sim/faults)");
  const account = getAccount(token);

  try {
    if (path === "/__sim/requests") {
      if (method === "GET") return json({ data: account.requests });
      if (method === "DELETE") {
        account.requests = [];
        return json({ ok: true });
      }
    }
    if (path === "/__sim/faults") {
      if (method === "GET") return json({ data: account.faults });
      if (method === "POST") {
        const fault = parseFault(isObject(body) ? body : {});
        account.faults.push(fault);
        return json(fault, 201);
      }
      if (method === "DELETE") {
        clearFaults(account);
        return json({ ok: true });
      }
    }
    if (path === "/__sim/webhooks") {
      if (method === "GET") return json({ data: account.deliveries });
      if (method === "DELETE") {
        account.deliveries = [];
        return json({ ok: true });
      }
    }
    for (const [pattern, handler] of CONTROL_ACTIONS) {
      const params = matchPath(pattern, path);
      if (!params || method !== "POST") continue;
      const ctx: SimContext = {
        account,
        env,
        method,
        path,
        params,
        query: url.searchParams,
        body,
        origin: url.origin,
        events: [],
      };
      const result = await handler(ctx);
      await deliver(ctx.events, () => deliverEvents(env, account, ctx.events));
      return result instanceof Response ? result : json(result);
    }
  } catch (err) {
    if (err instanceof UpstreamError) return err.toResponse();
    throw err;
  }
  return errorResponse(404, "not_found", `No control route ${method} ${path}`);
}
