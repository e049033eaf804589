import { readFile } from "node:fs/promises";
import { configDefaults, defineConfig, type Plugin } from "vitest/config";

/**
 * @actions/workflow-parser ships source maps whose sources are not in the
 * package; inlined (below), Vite warns once per file ("Sourcemap … points to
 * missing source files"), 60-odd lines of noise per run. Loaded without its
 * map comment, the file has no map to check; nothing is lost (the sources
 * are not there to show).
 */
function withoutMissingSourceMaps(pkg: string): Plugin {
  return {
    name: "without-missing-source-maps",
    enforce: "pre",
    async load(id) {
      if (!id.includes(`/node_modules/${pkg}/`) || !id.endsWith(".js")) return null;
      const code = await readFile(id, "utf8");
      return { code: code.replace(/^\/\/# sourceMappingURL=.*$/gm, ""), map: null };
    },
  };
}

export default defineConfig({
  plugins: [withoutMissingSourceMaps("@actions/workflow-parser")],
  test: {
    include: ["test/**/*.test.ts"],
    // Fixture repositories hold test files of their own (a spec's mapped tests): data, not tests.
    exclude: [...configDefaults.exclude, "test/fixtures/**"],
    // Process-spawning tests share two cores with the bundler; keep them predictable.
    pool: "forks",
    // Most tests wait on child processes (git, the bundled gate, runners): on two cores one
    // worker leaves the machine half idle, three keep it busy (the suite's wall time roughly halves).
    maxWorkers: 3,
    // No per-test timeout: a timeout is a timed assertion, and on a loaded 2-core machine a
    // correct end-to-end test can take minutes. A hung test is bounded by CI's own time limit.
    testTimeout: 0,
    hookTimeout: 0,
    // @actions/workflow-parser imports its schema JSON without `with { type: "json" }`, which
    // Node refuses; inlined, Vite transforms that import instead.
    server: { deps: { inline: ["@actions/workflow-parser"] } },
  },
});
