// The upstream simulator (sim/src) keeps an acyclic import graph: one module owns payment records
// (sim/src/payment-records.ts) and installment plans, subscriptions and payment links call it.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { circles, importGraph } from "../../scripts/lib/import-graph.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("sim/src import graph", () => {
  const edges = importGraph(root, "sim/src");

  it("reads the simulator's files", () => {
    expect(edges.get("sim/src/installments.ts")).toContain("sim/src/payment-records.ts");
  });

  it("has no file-level circle", () => {
    expect(circles(edges)).toEqual([]);
  });
});
