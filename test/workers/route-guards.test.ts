// Route guards for every authenticated operation of the OpenAPI document (issue 10): no credential
// is 401; a key lacking the operation's documented permission (`x-permission`) is 403 naming it in
// details.requiredPermission; a record of another organization, or of another workspace of the same
// organization, is 404 — while the same request for the caller's own record is not. Passthrough
// operations forward to the upstream: there another tenant's record must never be translated to its
// upstream id (named in the path, the query string or the body) nor reach its gateway account.
// Generated, so a new route is covered untouched; a path parameter whose resource has no factory in
// tenant-records.ts fails here.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PERMISSIONS, type Permission } from "../../src/lib/permissions";
import { CATALOGUE } from "../../src/compat/catalogue";
import { passthroughQueryNames } from "../../src/compat/passthrough-query";
import { clearSimRequests, simRequests } from "./gateway-support";
import { type ApiOperation, apiOperations, fillPath, paramResource } from "./openapi-operations";
import { type CreatedRecord, RECORD_FACTORIES, seedTenantWithTwoWorkspaces, type TenantWorkspace, VALID_BODIES } from "./tenant-records";
import { type ApiResponse, call, type ErrorBody, expectError, seedApiKey } from "./support";
import { mockReceiver } from "./webhooks-support";

const PASSTHROUGH = new Set(CATALOGUE.filter((op) => op.kind === "passthrough").map((op) => op.operationId));
const AUTHENTICATED = (await apiOperations()).filter((op) => op.security.length > 0);
const GUARDED = AUTHENTICATED.filter((op) => op.permission !== null);
const WITH_RECORDS = AUTHENTICATED.filter((op) => op.pathParams.length > 0);

/** Another organization: its records are created once, on first need, and never change (every request for them must 404). */
let stranger: Awaited<ReturnType<typeof seedTenantWithTwoWorkspaces>>;
const strangerRecords = new Map<string, Promise<CreatedRecord>>();
const strangerRecord = (resource: string) => {
  if (!strangerRecords.has(resource)) strangerRecords.set(resource, factoryFor(resource).create(stranger.home));
  return strangerRecords.get(resource)!;
};

function factoryFor(resource: string) {
  const factory = RECORD_FACTORIES[resource];
  if (!factory) throw new Error(`No record factory for '${resource}': add one to test/workers/tenant-records.ts`);
  return factory;
}

beforeAll(async () => {
  mockReceiver(() => new Response("ok")); // webhook tests and redeliveries never leave the worker
  stranger = await seedTenantWithTwoWorkspaces();
});
afterAll(() => vi.restoreAllMocks());

const bodyFor = (op: ApiOperation) => (op.method === "GET" ? undefined : (VALID_BODIES[op.label] ?? {}));

function request(op: ApiOperation, path: string, key: string | null, workspaceId?: string, body = bodyFor(op)) {
  return call<Partial<ErrorBody> | null>(op.method, path, {
    key,
    body,
    headers: workspaceId ? { "X-Workspace-Id": workspaceId } : {},
  });
}

/**
 * A passthrough request naming the records in its path, and also in its query string (when the operation
 * takes a `customer` filter or forwards its query unchecked) and (with a body) nested in its body.
 */
function namingEverywhere(op: ApiOperation, path: string, records: CreatedRecord[], key: string) {
  const ids = records.map((r) => r.id);
  const names = passthroughQueryNames(op.operationId);
  const query = names === null || names.has("customer") ? `?${ids.map((id) => `customer=${id}`).join("&")}` : "";
  const body = bodyFor(op);
  return request(op, `${path}${query}`, key, undefined, body === undefined ? undefined : { ...body, ref: ids[0], nested: { refs: ids } });
}

describe("the guarded operations", () => {
  it("are every authenticated operation the document lists", () => {
    expect(AUTHENTICATED.length).toBeGreaterThanOrEqual(250);
    // Only the console's own session routes (sign-out, me, password) document no permission.
    expect(AUTHENTICATED.filter((op) => op.permission === null).every((op) => op.path.startsWith("/api/v1/auth/"))).toBe(true);
  });
});

describe("no credential: 401", () => {
  it.each(AUTHENTICATED.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    const res = await call(
      op.method,
      fillPath(op, () => crypto.randomUUID()),
      { body: bodyFor(op) },
    );
    expectError(res, 401, "UNAUTHORIZED");
  });
});

describe("a key without the operation's permission: 403 naming it", () => {
  let organizationId: string;
  const keys = new Map<Permission, Promise<string>>();
  beforeAll(async () => {
    organizationId = (await seedTenantWithTwoWorkspaces()).home.organizationId;
  });
  /** Every permission but this one (and, for `x.read`, but `x.manage`, which implies it). */
  const keyLacking = (permission: Permission) => {
    if (!keys.has(permission)) {
      const lacking = new Set([permission, permission.replace(/\.read$/, ".manage")]);
      keys.set(
        permission,
        seedApiKey(organizationId, null, { permissions: PERMISSIONS.filter((p) => !lacking.has(p)) }).then((k) => k.key),
      );
    }
    return keys.get(permission)!;
  };
  it.each(GUARDED.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    const res = await request(
      op,
      fillPath(op, () => crypto.randomUUID()),
      await keyLacking(op.permission!),
    );
    const error = expectError(res, 403, "FORBIDDEN");
    expect(error.details.requiredPermission).toBe(op.permission);
  });
});

/** What a passthrough forwards for another tenant's record: never its upstream id, never with its credential. */
async function expectNotForwardedToOwner(
  op: ApiOperation,
  caller: TenantWorkspace,
  owner: TenantWorkspace,
  record: CreatedRecord,
  res: ApiResponse,
) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  expect(await simRequests(owner.upstreamKey), "the record owner's gateway account was called").toEqual([]);
  const forwarded = await simRequests(caller.upstreamKey);
  if (record.upstreamId)
    for (const r of forwarded) {
      expect(r.path, `${op.label} translated another tenant's id`).not.toContain(record.upstreamId);
      expect(r.query, `${op.label} translated another tenant's id in the query`).not.toContain(record.upstreamId);
      expect(r.body, `${op.label} translated another tenant's id in the body`).not.toContain(record.upstreamId);
    }
}

describe("another tenant's record: 404", () => {
  it.each(WITH_RECORDS.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    const resources = Object.fromEntries(op.pathParams.map((name) => [name, paramResource(op, name)]));
    const passthrough = PASSTHROUGH.has(op.operationId);
    if (passthrough) {
      // The upstream holds these records: name a Ponte record (translated when it is the caller's) or, for upstream-only resources, a payment.
      for (const name of op.pathParams) if (!RECORD_FACTORIES[resources[name]!.split("/")[0]!]) resources[name] = "payments";
      for (const name of op.pathParams) resources[name] = resources[name]!.split("/")[0]!;
    }
    const { home, sibling } = await seedTenantWithTwoWorkspaces();
    const recordsIn = async (ws: TenantWorkspace | "stranger") => {
      const out: Record<string, CreatedRecord> = {};
      for (const name of op.pathParams) {
        const resource = resources[name]!;
        out[name] = ws === "stranger" ? await strangerRecord(resource) : await factoryFor(resource).create(ws);
      }
      return out;
    };
    const pathOf = (records: Record<string, CreatedRecord>) => fillPath(op, (name) => records[name]!.id);
    /** The request, with both simulated accounts' logs cleared first (creating records calls the upstream). */
    const requestFor = async (records: Record<string, CreatedRecord>, owner: TenantWorkspace) => {
      if (!passthrough) return request(op, pathOf(records), home.key);
      await Promise.all([clearSimRequests(home.upstreamKey), clearSimRequests(owner.upstreamKey)]);
      return namingEverywhere(op, pathOf(records), Object.values(records), home.key);
    };

    // Another organization's record.
    const foreign = await recordsIn("stranger");
    const otherOrg = await requestFor(foreign, stranger.home);
    if (passthrough) for (const name of op.pathParams) await expectNotForwardedToOwner(op, home, stranger.home, foreign[name]!, otherOrg);
    else expectError(otherOrg, 404, "NOT_FOUND");

    // Another workspace of the same organization, with a key of that organization acting in its own workspace.
    const workspaceScoped = op.pathParams.some((name) => factoryFor(resources[name]!).scope === "workspace");
    if (workspaceScoped) {
      const neighbour = await recordsIn(sibling);
      const otherWorkspace = await requestFor(neighbour, sibling);
      if (passthrough)
        for (const name of op.pathParams) await expectNotForwardedToOwner(op, home, sibling, neighbour[name]!, otherWorkspace);
      else expectError(otherWorkspace, 404, "NOT_FOUND");
    }

    // The caller's own record is found: the 404s above are the tenant rule, not a wrong path or body.
    if (!passthrough) {
      const own = await request(op, pathOf(await recordsIn(home)), home.key);
      expect(own.status, `${op.label} for the caller's own record: ${JSON.stringify(own.body)}`).not.toBe(404);
      expect(own.body?.error?.code, `${op.label} needs a valid body in VALID_BODIES (tenant-records.ts)`).not.toBe("VALIDATION_FAILED");
      expect(own.status).toBeLessThan(500);
    }
  });
});
