// Shared helpers for simulator tests: a fresh account per call, and JSON request shortcuts.
import { exports } from "cloudflare:workers";

export const BASE = "https://sim.test";

export function newToken(): string {
  return `$aact_hmlg_${crypto.randomUUID().replace(/-/g, "")}`;
}

export interface Sim {
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

export function fetchSim(input: string, init?: RequestInit): Promise<Response> {
  return (exports as unknown as { default: { fetch(request: Request): Promise<Response> } }).default.fetch(
    new Request(`${BASE}${input}`, init),
  );
}

export function account(token = newToken()): Sim {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetchSim(path, {
      method,
      headers: { access_token: token, "content-type": "application/json", "user-agent": "ponte-test", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    token,
    call,
    async json(method, path, body) {
      const res = await call(method, path, body);
      return { status: res.status, body: await res.json() };
    },
    async control(method, path, body) {
      const sep = path.includes("?") ? "&" : "?";
      const res = await fetchSim(`${path}${sep}token=${encodeURIComponent(token)}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}

export const CUSTOMER = { name: "Maria Silva", cpfCnpj: "24971563792", email: "maria@example.com" };

export function dateIn(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A simulator record as the tests read it: an id and whatever else the resource carries. */
export type SimRecord = { id: string; creditCard?: { creditCardNumber?: string; creditCardToken?: string } } & Record<string, unknown>;

export async function createCustomer(sim: Sim, extra: Record<string, unknown> = {}): Promise<SimRecord> {
  const res = await sim.json<SimRecord>("POST", "/v3/customers", { ...CUSTOMER, ...extra });
  if (res.status !== 200) throw new Error(`customer create failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createPayment(sim: Sim, extra: Record<string, unknown> = {}): Promise<SimRecord> {
  const customer = extra.customer ?? (await createCustomer(sim)).id;
  const res = await sim.json<SimRecord>("POST", "/v3/payments", { customer, billingType: "PIX", value: 100, dueDate: dateIn(3), ...extra });
  if (res.status !== 200) throw new Error(`payment create failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

export const CARD = {
  holderName: "MARIA SILVA",
  number: "4111111111111111",
  expiryMonth: "12",
  expiryYear: String(new Date().getUTCFullYear() + 2),
  ccv: "123",
};
export const HOLDER = {
  name: "Maria Silva",
  email: "maria@example.com",
  cpfCnpj: "24971563792",
  postalCode: "01310-100",
  addressNumber: "100",
  phone: "11999999999",
};

/** A list page as the simulator (and Asaas) answer it. */
export interface SimList<T> {
  object?: "list";
  hasMore?: boolean;
  totalCount?: number;
  limit?: number;
  offset?: number;
  data: T[];
}
/** Asaas's error body: `errors: [{ code, description }]`. */
export interface AsaasErrors {
  errors: { code: string; description: string }[];
}
/** An answer as the tests read it: the record on success, `errors` on failure (the status says which). */
export type Answer<T> = T & AsaasErrors;
/** `DELETE /v3/<resource>/{id}`. */
export interface Deleted {
  deleted: boolean;
  id: string;
}
