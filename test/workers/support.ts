// Test support: tenants seeded straight into D1, and requests through the worker's own fetch.
import { env, SELF } from "cloudflare:test";
import { generateApiKeySecret, displayParts, hashApiKey } from "../../src/access/api-key-secret";
import { createDb } from "../../src/db/client";
import { apiKeys, organizations, workspaces } from "../../src/db/schema";
import { PERMISSIONS } from "../../src/lib/permissions";
import { newId } from "../../src/lib/ids";

export const BASE = "http://ponte.test";

export interface TestTenant {
  organizationId: string;
  workspaceId: string;
  apiKeyId: string;
  key: string;
}

export interface SeedOptions {
  permissions?: readonly string[];
  /** Bind the key to the workspace (default: organization-wide). */
  workspaceBound?: boolean;
  environment?: "live" | "test";
}

/** A fresh organization + default workspace + API key (every permission unless told otherwise). */
export async function seedTenant(options: SeedOptions = {}): Promise<TestTenant> {
  const organizationId = newId();
  const workspaceId = newId();
  const now = new Date().toISOString();
  const db = createDb(env.DB);
  await db.batch([
    db
      .insert(organizations)
      .values({ id: organizationId, name: "Acme Ltda", defaultWorkspaceId: workspaceId, createdAt: now, updatedAt: now }),
    db.insert(workspaces).values({ id: workspaceId, organizationId, name: "Default", createdAt: now, updatedAt: now }),
  ]);
  const { apiKeyId, key } = await seedApiKey(organizationId, options.workspaceBound ? workspaceId : null, options);
  return { organizationId, workspaceId, apiKeyId, key };
}

export async function seedApiKey(organizationId: string, workspaceId: string | null, options: SeedOptions = {}) {
  const key = generateApiKeySecret(options.environment ?? "test");
  const apiKeyId = newId();
  const now = new Date().toISOString();
  const { displayPrefix, last4 } = displayParts(key);
  await createDb(env.DB)
    .insert(apiKeys)
    .values({
      id: apiKeyId,
      organizationId,
      workspaceId,
      environment: options.environment ?? "test",
      name: "test key",
      keyHash: await hashApiKey(key),
      displayPrefix,
      last4,
      permissions: [...(options.permissions ?? PERMISSIONS)],
      createdBy: "test-seed",
      createdAt: now,
      updatedAt: now,
    });
  return { apiKeyId, key };
}

export async function seedWorkspace(organizationId: string, name = "Second"): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await createDb(env.DB).insert(workspaces).values({ id, organizationId, name, createdAt: now, updatedAt: now });
  return id;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  const res = await SELF.fetch(`${BASE}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** One field's complaint in a VALIDATION_FAILED error. */
export interface FieldError {
  path: string;
  message: string;
  code: string;
}

/** The `error` member of the error envelope; details vary by code, so tests read them as unknown unless named here. */
export interface ApiErrorBody {
  code: string;
  message: string;
  /** `fields` is only sent with VALIDATION_FAILED; typed as present so tests read it directly (a missing one fails the test). */
  details: { fields: FieldError[]; errors: { code?: string; description?: string }[]; [detail: string]: unknown };
  requestId: string;
}

/** The error envelope every failure returns. */
export interface ErrorBody {
  error: ApiErrorBody;
}

/** The success envelope: `{ data, meta }`; lists add `meta.pagination` (src/http/envelope.ts). */
export interface Envelope<T> {
  data: T;
  meta: { requestId: string; pagination: { limit: number; offset: number; totalCount: number; hasMore: boolean } };
}

/** Asserts the error envelope and returns it. */
export function expectError(res: ApiResponse, status: number, code: string) {
  const body = res.body as Partial<ErrorBody> | null | undefined;
  if (res.status !== status || body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  const requestId = res.headers.get("X-Request-Id");
  const { error } = res.body as ErrorBody;
  if (!requestId || error.requestId !== requestId) throw new Error("error.requestId must equal X-Request-Id");
  if (typeof error.message !== "string" || typeof error.details !== "object") throw new Error("malformed error envelope");
  return error;
}

/** The key's answer is stored just after the response (waitUntil): wait until it has landed. */
export async function answerStored(organizationId: string, key: string) {
  for (let i = 0; i < 50; i++) {
    const row = await env.DB.prepare("SELECT state FROM idempotency_keys WHERE organization_id = ? AND key = ?")
      .bind(organizationId, key)
      .first<{ state: string }>();
    if (row?.state === "completed") return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the answer of ${key} was never stored`);
}
