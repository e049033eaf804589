import { describe, expect, it } from "vitest";
import { addedDependencies } from "../src/proof/guardrail-deps.js";

// "No new dependencies" over every manifest a resolver reads: each attack row
// beside its honest twin, over the pure reading (base text, head text → what
// the head installs that the base did not).

const ids = (path: string, base: string | undefined, head: string) => {
  const r = addedDependencies(path, base, head);
  if (!r.manifest || !r.ok) throw new Error(JSON.stringify(r));
  return r.added.map((a) => a.id);
};
const pkg = (doc: object) => JSON.stringify(doc, null, 2);

const PKG_BASE = { name: "x", dependencies: { ms: "^2.1.0" } };

describe("package.json beyond the four dependency maps", () => {
  it.each([
    [
      "an override re-pointed at an alias",
      { overrides: { ms: "npm:evil@1.0.0" } },
      ["overrides ms → evil"],
    ],
    [
      "a nested override",
      { overrides: { a: { b: "git+https://x.test/b.git" } } },
      ["overrides a>b → a>b (git+https://x.test/b.git)"],
    ],
    [
      "a yarn resolution",
      { resolutions: { ms: "file:../ms" } },
      ["resolutions ms → ms (file:../ms)"],
    ],
    [
      "a pnpm override",
      { pnpm: { overrides: { ms: "link:../ms" } } },
      ["pnpm.overrides ms → ms (link:../ms)"],
    ],
    ["a bundled dependency", { bundleDependencies: ["left-pad"] }, ["bundled left-pad"]],
    [
      "a dependency turned into a git source",
      { dependencies: { ms: "github:evil/ms" } },
      ["ms (github:evil/ms)"],
    ],
  ])("%s is a new dependency", (_c, extra, expected) => {
    expect(ids("package.json", pkg(PKG_BASE), pkg({ ...PKG_BASE, ...extra }))).toEqual(expected);
  });

  it("a version bump is none (twin)", () => {
    expect(
      ids("package.json", pkg(PKG_BASE), pkg({ ...PKG_BASE, dependencies: { ms: "^2.1.3" } })),
    ).toEqual([]);
  });
});

describe("Python manifests", () => {
  it("a new setup.py with install_requires: the file and each requirement", () => {
    const head =
      'from setuptools import setup\nsetup(name="x", install_requires=["requests>=2", "evil @ https://x.test/e.whl"])\n';
    expect(ids("setup.py", undefined, head)).toEqual([
      "a new setup.py",
      "requests",
      "evil (https://x.test/e.whl)",
    ]);
  });
  it("setup.py: a list built at run time is named; the same requirements re-ordered are none (twin)", () => {
    const base = 'setup(install_requires=["a", "b"])\n';
    expect(ids("setup.py", base, 'setup(install_requires=["b", "a"])\n')).toEqual([]);
    expect(
      ids("setup.py", base, 'setup(install_requires=["a", "b"], tests_require=REQS)\n'),
    ).toEqual(["tests_require (computed)"]);
  });
  it("setup.cfg install_requires and extras", () => {
    const base = "[options]\ninstall_requires =\n    a\n";
    const head =
      "[options]\ninstall_requires =\n    a\n    b>=1\n[options.extras_require]\ndev = c\n";
    expect(ids("setup.cfg", base, head)).toEqual(["b", "c"]);
    expect(ids("setup.cfg", base, `${base}[flake8]\nmax-line-length = 100\n`)).toEqual([]);
  });
  it("a new Pipfile, and a package added to one", () => {
    expect(ids("Pipfile", undefined, '[packages]\nrequests = "*"\n')).toEqual([
      "a new Pipfile",
      "requests",
    ]);
    expect(
      ids("Pipfile", '[packages]\nrequests = "*"\n', '[packages]\nrequests = "==2.0"\n'),
    ).toEqual([]);
  });
  it("poetry.lock and uv.lock: a package added with no manifest change", () => {
    const lock = (names: string[]) =>
      names.map((n) => `[[package]]\nname = "${n}"\nversion = "1.0"\n`).join("\n");
    expect(ids("poetry.lock", lock(["a"]), lock(["a", "evil"]))).toEqual(["evil"]);
    expect(ids("uv.lock", lock(["a"]), lock(["a"]).replace("1.0", "1.1"))).toEqual([]);
  });
});

describe("JavaScript lockfiles: a package added with no manifest change", () => {
  it("package-lock.json v3", () => {
    const lock = (pkgs: Record<string, object>) =>
      pkg({ lockfileVersion: 3, packages: { "": {}, ...pkgs } });
    const base = lock({ "node_modules/ms": { version: "2.1.3" } });
    expect(
      ids(
        "package-lock.json",
        base,
        lock({
          "node_modules/ms": { version: "2.1.3" },
          "node_modules/evil": { version: "1.0.0" },
        }),
      ),
    ).toEqual(["evil"]);
    expect(
      ids("package-lock.json", base, lock({ "node_modules/ms": { version: "2.1.4" } })),
    ).toEqual([]);
  });
  it("pnpm-lock.yaml", () => {
    const base =
      "lockfileVersion: '9.0'\npackages:\n  ms@2.1.3:\n    resolution: {integrity: sha512-x}\n";
    const head = `${base}  evil@1.0.0:\n    resolution: {integrity: sha512-y}\n`;
    expect(ids("pnpm-lock.yaml", base, head)).toEqual(["evil"]);
    expect(ids("pnpm-lock.yaml", base, base.replace("2.1.3", "2.1.4"))).toEqual([]);
  });
  it("yarn.lock", () => {
    const base = 'ms@^2.1.0:\n  version "2.1.3"\n';
    expect(ids("yarn.lock", base, `${base}\n"evil@^1.0.0", evil@1:\n  version "1.0.0"\n`)).toEqual([
      "evil",
    ]);
    expect(ids("yarn.lock", base, base.replace("2.1.3", "2.1.4"))).toEqual([]);
  });
});
