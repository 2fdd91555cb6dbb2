// scripts/lib/local.mjs runs in plain Node and cannot import the worker's TypeScript, so it keeps its own
// copy of the permission list for the seeded "every permission" key; this keeps the copy equal to the table.
import { describe, expect, it } from "vitest";
import { PERMISSIONS_ALL } from "../../scripts/lib/local.mjs";
import { PERMISSIONS } from "../../src/lib/permissions";

describe("scripts/lib/local.mjs PERMISSIONS_ALL", () => {
  it("is exactly src/lib/permissions.ts's PERMISSIONS, in order", () => {
    expect(PERMISSIONS_ALL).toEqual([...PERMISSIONS]);
  });
});
