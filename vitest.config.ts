import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Process-spawning tests share two cores with the bundler; keep them predictable.
    pool: "forks",
    testTimeout: 30_000,
    // @actions/workflow-parser imports its schema JSON without `with { type: "json" }`, which
    // Node refuses; inlined, Vite transforms that import instead.
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
