// The 187 passthrough operations: one route per catalogue method+path, documented per operation.
// Handlers forward raw bytes rather than a re-serialised parse, so they check the body and the ids
// themselves instead of through zod validators (the OpenAPI document still comes from createRoute).
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { guard } from "../access";
import type { Principal } from "../access/principal";
import type { Deps } from "../deps";
import type { Permission } from "../lib/permissions";
import type { AppEnv } from "../http/app-env";
import { errorResponses } from "../http/openapi";
import { ApiError } from "../http/errors";
import { CATALOGUE, type CatalogueOperation } from "./catalogue";
import { catalogueRoute, documentedPath, pathParamNames, routerPath } from "./catalogue-route";
import type { UpstreamFile } from "../gateway/client";
import { forwardPassthrough } from "./dispatch";
import { bearerPassthroughAnswer } from "./bearer-dialect";
import { speaksAsaas } from "./asaas-dialect/request";
import { pathOf, segmentOf } from "../http/segment";
import { unknownQueryError, unknownQueryNames } from "../http/query-rule";
import { loadOnce } from "../lib/load-once";
import { markStage } from "../http/server-timing";

/** The upstream shapes are loaded on the first request that carries a query string (they are large; docs/concepts.md "One rule for query strings"). */
const queryNames = loadOnce(() => import("./passthrough-query"));

/** The query rule for a passthrough operation: the names its upstream shape documents, or forwarded unchecked. */
async function checkQuery(url: string, operationId: string): Promise<void> {
  if (!url.includes("?")) return;
  const declared = (await queryNames()).passthroughQueryNames(operationId);
  const unknown = declared ? unknownQueryNames(url, declared) : [];
  if (unknown.length > 0) throw unknownQueryError(unknown);
}

/** An id in a path: one segment of letters, digits and `_ - . ~ + @ =`, not starting with a dot (so never `.` or `..`). */
export const SAFE_PATH_SEGMENT = /^[A-Za-z0-9_~+@=-][A-Za-z0-9_.~+@=-]{0,127}$/;

/** Uploads the upstream takes as multipart/form-data: POST to a collection of documents, files or images. */
export const isUploadOperation = (op: CatalogueOperation) => op.method === "POST" && /\/(documents|files|images)$/.test(op.path);

/** Downloads the upstream answers with a PDF (the carnê of an installment or subscription), forwarded as bytes. */
export const isDocumentDownload = (op: CatalogueOperation) => op.method === "GET" && /\/paymentBook$/.test(op.path);
const PdfDocument = z.string().openapi("PassthroughDocument", {
  format: "binary",
  description:
    "The upstream's PDF, byte for byte. X-Upstream-Status and X-Upstream-Duration-Ms carry what the envelope's meta.upstream would.",
});

const PASSTHROUGH_ERRORS = [400, 401, 403, 404, 409, 429, 502, 504] as const;
const BODY_ERRORS = [...PASSTHROUGH_ERRORS, 413, 415] as const;

const PassthroughResponse = z
  .object({
    data: z.unknown().openapi({
      description:
        "The upstream's JSON answer in Ponte's vocabulary: money as decimal strings (\"50.00\"), date-times in ISO 8601 UTC, a list's items as an array, customers, payments, subscriptions and installment plans this workspace holds by their Ponte UUID (with `upstreamId` beside). In the Asaas dialect, the upstream's body exactly as sent, not enveloped.",
    }),
    meta: z.object({
      requestId: z.string(),
      pagination: z
        .object({
          limit: z.number().int(),
          offset: z.number().int(),
          totalCount: z.number().int(),
          hasMore: z.boolean(),
        })
        .optional()
        .openapi({ description: "When the upstream answered a list: its paging." }),
      upstream: z.object({
        status: z.number().int().openapi({ description: "The upstream's HTTP status." }),
        durationMs: z.number().int(),
      }),
    }),
  })
  .openapi("PassthroughResponse");

const FreeFormBody = z.looseObject({}).openapi("PassthroughBody", { description: "A JSON object, forwarded to the upstream as sent." });
const UploadBody = z
  .looseObject({})
  .openapi("PassthroughUpload", { description: "multipart/form-data, forwarded byte for byte with its boundary." });

function documentFor(op: CatalogueOperation) {
  const names = pathParamNames(op.path);
  const params = names.length
    ? z.object(
        Object.fromEntries(
          names.map((name) => [
            name,
            z
              .string()
              .regex(SAFE_PATH_SEGMENT)
              .openapi({ param: { name, in: "path" }, example: "pay_080225913252" }),
          ]),
        ),
      )
    : undefined;
  const content = {
    "application/json": { schema: FreeFormBody },
    ...(isUploadOperation(op) ? { "multipart/form-data": { schema: UploadBody } } : {}),
  };
  const { middleware: _middleware, ...security } = guard(op.permission as Permission);
  return createRoute({
    ...catalogueRoute(op.operationId),
    ...security,
    method: op.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
    path: documentedPath(op),
    description: [
      `Passthrough to the upstream's \`${op.upstreamMethod} ${op.upstreamPath}\`, with this workspace's gateway account.`,
      `The query string and body are forwarded as sent;`,
      `a Ponte customer, payment, subscription or installment plan UUID in the path, the query or the JSON body is replaced by its upstream id.`,
    ].join(" "),
    request: {
      ...(params ? { params } : {}),
      ...(op.bodyRequired ? { body: { required: true, content } } : {}),
    },
    responses: {
      [op.successStatus]: isDocumentDownload(op)
        ? { description: "The upstream's document, as sent (not enveloped).", content: { "application/pdf": { schema: PdfDocument } } }
        : {
            description: "The upstream's answer in Ponte's vocabulary, in the success envelope.",
            content: { "application/json": { schema: PassthroughResponse } },
          },
      ...errorResponses(...(op.bodyRequired ? BODY_ERRORS : PASSTHROUGH_ERRORS)),
    },
  });
}

/** Route order: literal segments before parameters, position by position (`/payments/limits` before `/payments/{id}`). */
const specificity = (path: string) =>
  path
    .split("/")
    .map((s) => (s.startsWith("{") ? "0" : "1"))
    .join("");

function readParams(c: Context<AppEnv>, names: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  const fields: { path: string; message: string; code: string }[] = [];
  for (const name of names) {
    const value = c.req.param(name) ?? "";
    if (SAFE_PATH_SEGMENT.test(value)) params[name] = value;
    else
      fields.push({
        path: `param.${name}`,
        message: "must be a single path segment of letters, digits and _ - . ~ + @ = (at most 128, not starting with a dot)",
        code: "invalid_format",
      });
  }
  if (fields.length > 0)
    throw new ApiError("VALIDATION_FAILED", `Invalid path parameter: ${fields.map((f) => f.path).join(", ")}.`, { fields });
  return params;
}

async function readBody(c: Context<AppEnv>, op: CatalogueOperation): Promise<{ body: ArrayBuffer | null; contentType: string | null }> {
  if (!op.bodyRequired) return { body: null, contentType: null };
  const contentType = c.req.header("content-type") ?? null;
  const media = ((contentType ?? "").split(";", 1)[0] ?? "").trim().toLowerCase();
  if (media === "multipart/form-data" && !isUploadOperation(op)) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "This operation takes a JSON object body (application/json).", { contentType: media });
  }
  const body = await c.req.raw.arrayBuffer();
  // The body guard has already rejected malformed JSON and non-objects; what is left to catch is no body at all.
  if (body.byteLength === 0 || contentType === null) {
    throw new ApiError("VALIDATION_FAILED", "This operation requires a request body: a JSON object (use {} for none).", {
      fields: [{ path: "body", message: "required: a JSON object", code: "invalid_type" }],
    });
  }
  return { body, contentType };
}

/** A document the upstream answered (the carnê PDF…): its bytes (streamed) and type as sent; what the envelope's meta would say goes in headers. */
function fileResponse(file: UpstreamFile, status: number, upstream: { status: number; durationMs: number }): Response {
  const headers = new Headers({
    "Content-Type": file.contentType,
    "X-Upstream-Status": String(upstream.status),
    "X-Upstream-Duration-Ms": String(upstream.durationMs),
  });
  if (file.disposition) headers.set("Content-Disposition", file.disposition);
  return new Response(file.body, { status, headers });
}

function rawQuery(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return "";
  const hash = url.indexOf("#", q);
  return url.slice(q + 1, hash < 0 ? undefined : hash);
}

/**
 * Runs after a successful upstream answer, before the response: how native records learn what a
 * passthrough write did (read-after-write). Given by the app, so this layer does not import modules.
 */
export type PassthroughAnswerHook = (deps: Deps, principal: Principal, operation: CatalogueOperation, data: unknown) => Promise<void>;

/**
 * Registers the routes. Their documentation (a zod schema per operation: most of the worker's start-up
 * CPU when built eagerly) is registered only when the OpenAPI document is first generated: the app's
 * document getters call `documentPassthroughRoutes` first. With `segment`, only the operations under
 * /api/v1/<segment> (an app built for one segment, src/lazy-app.ts).
 */
export function registerPassthroughRoutes(app: OpenAPIHono<AppEnv>, afterAnswer?: PassthroughAnswerHook, segment?: string) {
  const groups = new Map<string, CatalogueOperation[]>();
  for (const op of CATALOGUE) {
    if (op.kind !== "passthrough" || (segment !== undefined && segmentOf(op.path) !== segment)) continue;
    const key = `${op.method} ${op.path}`;
    groups.set(key, [...(groups.get(key) ?? []), op]);
  }
  const byLiteralsFirst = (a: CatalogueOperation[], b: CatalogueOperation[]) => {
    const [x, y] = [specificity(a[0]?.path ?? ""), specificity(b[0]?.path ?? "")];
    return x < y ? 1 : x > y ? -1 : 0;
  };
  const ordered = [...groups.values()].sort(byLiteralsFirst);
  for (const variants of ordered) {
    const [primary, trailingSlashVariant] = variants;
    if (!primary) continue;
    if (
      variants.some(
        (v) => v.permission !== primary.permission || v.bodyRequired !== primary.bodyRequired || v.upstreamPath !== primary.upstreamPath,
      )
    ) {
      throw new Error(`catalogue variants of ${primary.method} ${primary.path} disagree on permission, body rule or upstream path`);
    }
    const { middleware } = guard(primary.permission as Permission);
    // The variants share their path, so their parameter names (read per request) are worked out once.
    const paramNames = pathParamNames(primary.path);
    app.on([primary.method], [routerPath(primary.path)], ...middleware, async (c: Context<AppEnv>) => {
      // `c.get`, not `c.var`: Hono's `c.var` copies every variable into a new object on each read.
      const deps = c.get("deps");
      markStage(deps, "chain");
      const principal = c.get("principal");
      const url = c.req.url;
      // The trailing-slash spelling names the second variant (documented there); the log records which.
      // (c.req.path has the slash trimmed under `strict: false`, so read the URL as sent.)
      const surfacePath = pathOf(url);
      const op = surfacePath.endsWith("/") && trailingSlashVariant ? trailingSlashVariant : primary;
      await checkQuery(url, op.operationId);
      const params = readParams(c, paramNames);
      const { body, contentType } = await readBody(c, op);
      const request = { operation: op, params, query: rawQuery(url), body, contentType, surfacePath };
      const result = await forwardPassthrough(deps, principal, request);
      if (result.file) return fileResponse(result.file, result.status, result.upstream);
      if (afterAnswer) await afterAnswer(deps, principal, op, result.data);
      const requestId = c.get("requestId");
      // The Asaas dialect answers the upstream's body as sent (it unwraps `data`); Bearer callers get Ponte's vocabulary.
      if (speaksAsaas(c.req.raw.headers))
        return c.json({ data: result.data, meta: { requestId, upstream: result.upstream } }, result.status);
      const { data, pagination } = await bearerPassthroughAnswer(deps, principal, op.operationId, result.data);
      markStage(deps, "vocabulary");
      const meta = { requestId, ...(pagination ? { pagination } : {}), upstream: result.upstream };
      const answer = c.json({ data, meta }, result.status);
      markStage(deps, "envelope");
      return answer;
    });
  }
}

const documented = new WeakSet<object>();

/** Adds the passthrough operations to the app's OpenAPI registry (once per app), in the catalogue's order. */
export function documentPassthroughRoutes(app: OpenAPIHono<AppEnv>): void {
  if (documented.has(app)) return;
  documented.add(app);
  for (const op of CATALOGUE) if (op.kind === "passthrough") app.openAPIRegistry.registerPath(documentFor(op));
}
