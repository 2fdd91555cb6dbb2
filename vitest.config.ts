import { defineConfig } from "vitest/config";

// Temporary: the unit project only. The workers project is added with the foundation.
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
    ],
  },
});
