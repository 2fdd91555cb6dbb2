// Ponte's typed TypeScript client: openapi-fetch over the types openapi-typescript generates from the
// OpenAPI document (schema.d.ts, `npm run client:generate`), and the webhook verifier.
//
//   const ponte = createPonteClient({ baseUrl: "http://localhost:8787", apiKey: "ponte_test_…" });
//   const { data, error } = await ponte.POST("/api/v1/customers", { body: { name: "Maria Silva", cpfCnpj: "52998224725" } });
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths } from "./schema";
export * from "./webhooks";

export interface PonteClientOptions {
  /** The deployment's origin, e.g. `http://localhost:8787` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** An API key: `ponte_test_…` (sandbox, local) or `ponte_live_…` (production). */
  apiKey: string;
  /** Act in this organization / workspace (X-Organization-Id / X-Workspace-Id); default: the key's. */
  organizationId?: string;
  workspaceId?: string;
  /** A fetch to use instead of the global one (a Worker's service binding, a test double). */
  fetch?: ClientOptions["fetch"];
  /** Further headers sent on every request. */
  headers?: Record<string, string>;
}

export type PonteClient = Client<paths>;

/** A client whose every method (`GET`, `POST`, …) takes a documented path and checks params, body and answer types. */
export function createPonteClient(options: PonteClientOptions): PonteClient {
  const headers: Record<string, string> = { ...options.headers, Authorization: `Bearer ${options.apiKey}` };
  if (options.organizationId) headers["X-Organization-Id"] = options.organizationId;
  if (options.workspaceId) headers["X-Workspace-Id"] = options.workspaceId;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
