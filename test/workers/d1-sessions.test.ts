// Issue 15: reads ready for D1 read replicas. Every response carries the D1 session's bookmark; a
// client sending it back reads at least that fresh (its own writes), and a malformed one is ignored.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { BASE, call, seedTenant } from "./support";
import type { Reply, Workspace } from "./bodies";

const BOOKMARK = "X-D1-Bookmark";

describe("D1 sessions and bookmarks", () => {
  it("a write answers with a bookmark; a read sent with it sees the write", async () => {
    const t = await seedTenant();
    const created = await call<Reply<Workspace>>("POST", "/api/v1/workspaces", { key: t.key, body: { name: "Filial Norte" } });
    expect(created.status).toBe(201);
    const bookmark = created.headers.get(BOOKMARK);
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    const read = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key, headers: { [BOOKMARK]: bookmark ?? "" } });
    expect(read.status).toBe(200);
    expect(read.body.data.map((w) => w.name)).toContain("Filial Norte");
    // The read's own bookmark is never older than the one it was given.
    expect((read.headers.get(BOOKMARK) ?? "") >= (bookmark ?? "")).toBe(true);
  });

  it("a read without a bookmark is answered (from any replica) and carries one", async () => {
    const t = await seedTenant();
    const read = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key });
    expect(read.status).toBe(200);
    expect(read.headers.get(BOOKMARK)).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
  });

  it("a malformed bookmark is ignored, never an error", async () => {
    const t = await seedTenant();
    for (const junk of ["not-a-bookmark!", "x".repeat(500), "'; DROP TABLE workspaces; --"]) {
      const read = await call<Reply<Workspace[]>>("GET", "/api/v1/workspaces", { key: t.key, headers: { [BOOKMARK]: junk } });
      expect(read.status).toBe(200);
    }
  });

  // Local D1 has no replicas, so a stale read cannot be produced here: the worker runs with a D1 that
  // records the constraint or bookmark each request opens its session with.
  it("a request sent with the previous response's bookmark opens its D1 session with that bookmark", async () => {
    const t = await seedTenant();
    const opened: string[] = [];
    const DB = {
      prepare: (query: string) => env.DB.prepare(query),
      batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
      exec: (query: string) => env.DB.exec(query),
      withSession: (constraintOrBookmark: string) => {
        opened.push(constraintOrBookmark);
        return env.DB.withSession(constraintOrBookmark);
      },
    } as unknown as D1Database;
    const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
      opened.length = 0;
      const ctx = createExecutionContext();
      const init: RequestInit = { method, headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json", ...headers } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const request = new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
      const res = await worker.fetch(request, { ...env, DB }, ctx);
      await waitOnExecutionContext(ctx);
      return { status: res.status, bookmark: res.headers.get(BOOKMARK), opened: [...opened] };
    };

    const write = await send("POST", "/api/v1/workspaces", {}, { name: "Filial Sul" });
    expect(write.status).toBe(201);
    expect(write.opened).toEqual(["first-primary"]);
    expect(write.bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);

    const followUp = await send("GET", "/api/v1/workspaces", { [BOOKMARK]: write.bookmark ?? "" });
    expect(followUp.status).toBe(200);
    expect(followUp.opened).toEqual([write.bookmark]);

    const fresh = await send("GET", "/api/v1/workspaces");
    expect(fresh.opened).toEqual(["first-unconstrained"]);
    const junk = await send("GET", "/api/v1/workspaces", { [BOOKMARK]: "not-a-bookmark!" });
    expect(junk.opened).toEqual(["first-unconstrained"]);
  });
});
