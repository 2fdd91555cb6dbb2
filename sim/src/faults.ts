// Injected faults for an account's next matching requests (control API `POST /__sim/faults`).
import { badRequest, isObject, json, type Json } from "./http";
import type { Account, Fault } from "./state";

const KINDS = new Set(["status", "delay", "timeout", "network"]);
/** A "timeout" fault hangs this long unless released by clearing the faults. */
export const TIMEOUT_HANG_MS = 65_000;

export function parseFault(body: Json): Fault {
  if (!KINDS.has(String(body.fault))) throw badRequest("invalid_fault", "fault must be status, delay, timeout or network");
  const times = body.times === undefined ? 1 : Number(body.times);
  if (!Number.isInteger(times) || times < 1) throw badRequest("invalid_times", "times must be a positive integer");
  const fault: Fault = { fault: body.fault as Fault["fault"], remaining: times };
  if (typeof body.method === "string") fault.method = body.method.toUpperCase();
  if (typeof body.pathPrefix === "string") fault.pathPrefix = body.pathPrefix;
  if (fault.fault === "status") {
    const status = Number(body.status ?? 500);
    if (!Number.isInteger(status) || status < 200 || status > 599) throw badRequest("invalid_status", "status must be 200..599");
    fault.status = status;
  }
  if (body.body !== undefined) fault.body = body.body;
  if (isObject(body.headers)) fault.headers = Object.fromEntries(Object.entries(body.headers).map(([k, v]) => [k, String(v)]));
  if (body.delayMs !== undefined) fault.delayMs = Math.max(0, Number(body.delayMs) || 0);
  return fault;
}

/** Takes (consumes one use of) the first fault matching the request, if any. */
export function takeFault(account: Account, method: string, path: string): Fault | undefined {
  const index = account.faults.findIndex((f) => (!f.method || f.method === method) && (!f.pathPrefix || path.startsWith(f.pathPrefix)));
  const fault = account.faults[index];
  if (!fault) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) account.faults.splice(index, 1);
  return fault;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The canned response of a "status" fault. */
export function statusFaultResponse(fault: Fault): Response {
  const status = fault.status ?? 500;
  const headers = new Headers(fault.headers ?? {});
  if (fault.body === undefined) {
    return json({ errors: [{ code: "simulated_fault", description: `Simulated upstream status ${status}` }] }, status, headers);
  }
  if (typeof fault.body === "string") {
    if (!headers.has("content-type")) headers.set("content-type", "text/plain; charset=utf-8");
    return new Response(fault.body, { status, headers });
  }
  return json(fault.body, status, headers);
}

/**
 * Hangs a "timeout" fault until `ms` passes or the account's faults are cleared. Polls a counter
 * rather than sharing a promise, since workerd forbids resolving one request's promise from another.
 */
export async function hang(account: Account, ms = TIMEOUT_HANG_MS): Promise<Response> {
  const generation = account.faultGeneration;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && account.faultGeneration === generation) await sleep(Math.min(100, ms));
  return json({ errors: [{ code: "simulated_timeout", description: "Simulated upstream timeout" }] }, 504);
}

export function clearFaults(account: Account): void {
  account.faults = [];
  account.faultGeneration += 1;
}
