// A call as an Asaas client makes it, for the dialect's tests: the key in the client's header spelling, the
// client's base path (`/api/v1`, `/v3`, `/api/v3`), a JSON body, nothing else; the answer parsed when it is JSON.
import { SELF } from "cloudflare:test";
import { BASE } from "./support";

// biome-ignore lint/suspicious/noExplicitAny: Asaas bodies are read field by field in the assertions.
export type Json = Record<string, any>;

/** Where a client sends its calls and how it spells the key header. */
export interface AsaasClient {
  prefix: string;
  header: string;
}

/** The layout the dialect was first served at: `/api/v1` with `access_token`. */
export const API_V1_CLIENT: AsaasClient = { prefix: "/api/v1", header: "access_token" };

export async function asaasCall(
  client: AsaasClient,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const headers = new Headers({ [client.header]: key, "User-Agent": "asaas-client/1.0", ...extra });
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const res = await SELF.fetch(`${BASE}${client.prefix}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed as Json };
}
