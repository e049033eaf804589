import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Process-spawning tests share two cores with the bundler; keep them predictable.
    pool: "forks",
    // No per-test timeout: a timeout is a timed assertion, and on a loaded 2-core machine a
    // correct end-to-end test can take minutes. A hung test is bounded by CI's own time limit.
    testTimeout: 0,
    hookTimeout: 0,
    // @actions/workflow-parser imports its schema JSON without `with { type: "json" }`, which
    // Node refuses; inlined, Vite transforms that import instead.
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
