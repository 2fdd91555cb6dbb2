// Issue 15: reads ready for D1 read replicas. Every response carries the D1 session's bookmark; a
// client sending it back reads at least that fresh (its own writes), and a malformed one is ignored.
import { describe, expect, it } from "vitest";
import { call, seedTenant } from "./support";
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
});
