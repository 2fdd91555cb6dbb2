import { describe, expect, it } from "vitest";
import { loadOnce } from "../../src/lib/load-once";

describe("loadOnce", () => {
  it("imports until a load lands, then answers the module itself without loading again", async () => {
    let loads = 0;
    const module = { name: "runner" };
    const load = loadOnce(async () => {
      loads += 1;
      return module;
    });
    // Concurrent first callers each load: no caller waits on a promise another one started.
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(module);
    expect(b).toBe(module);
    expect(loads).toBe(2);
    const later = load();
    expect(later).toBe(module); // not a promise: no import() on later calls
    expect(loads).toBe(2);
  });

  it("keeps nothing when a load fails, so the next call tries again", async () => {
    let attempt = 0;
    const load = loadOnce(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error("module failed to load");
      return { ok: true };
    });
    await expect(load()).rejects.toThrow("module failed to load");
    await expect(load()).resolves.toEqual({ ok: true });
    expect(attempt).toBe(2);
  });
});
