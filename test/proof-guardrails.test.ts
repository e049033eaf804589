import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AddedDependencies,
  addedDependencies,
  type GuardrailBullet,
  protectedPathMatches,
} from "../src/proof/guardrail-deps.js";

const DEPS = join(import.meta.dirname, "fixtures/proof/deps");
const read = (kind: string, side: string, file: string) =>
  readFileSync(join(DEPS, kind, side, file), "utf8");

function added(r: AddedDependencies): string[] {
  if (!r.manifest) return ["(not a manifest)"];
  if (!r.ok) return [`error ${r.side}:${r.line}`];
  return r.added.map((a) => `${a.id} @${a.line}`);
}

describe("addedDependencies: every manifest's attack is found, its honest twin is not", () => {
  it.each([
    [
      "npm",
      "package.json",
      ["lodash-evil @4", "axios @5", "left-pad (github:someone/left-pad) @9", "react @12"],
    ],
    [
      "pip",
      "requirements-dev.txt",
      ["httpx @4", "--extra-index-url https://pypi.example.com/simple @5"],
    ],
    ["pyproject", "pyproject.toml", ["rich @6", "orjson @10", "hypothesis @18"]],
    [
      "go",
      "go.mod",
      [
        "github.com/google/uuid @9",
        "replace github.com/stretchr/testify => github.com/someone/testify v1.9.0 @12",
      ],
    ],
    [
      "cargo",
      "Cargo.toml",
      ["serde_json @7", "cc @13", "libc (git: https://github.com/someone/libc) @16"],
    ],
  ] as const)("%s", (kind, file, expected) => {
    const base = read(kind, "base", file);
    expect(added(addedDependencies(`sub/${file}`, base, read(kind, "attack", file)))).toEqual(
      expected,
    );
    expect(added(addedDependencies(`sub/${file}`, base, read(kind, "honest", file)))).toEqual([]);
  });

  it.each([
    ["npm", "package.json", 5],
    ["pip", "requirements-dev.txt", 2],
    ["pyproject", "pyproject.toml", 4],
    ["go", "go.mod", 3],
    ["cargo", "Cargo.toml", 3],
  ] as const)(
    "%s: a manifest that does not parse is an error with its line, never no new dependencies",
    (kind, file, line) => {
      const broken = read(kind, "broken", file);
      const base = read(kind, "base", file);
      const head = addedDependencies(file, base, broken);
      expect(head).toMatchObject({ manifest: true, ok: false, side: "head", line });
      if (head.manifest && !head.ok) expect(head.message).toContain(file);
      // The control: the same file read as the base side is an error of the base.
      expect(addedDependencies(file, broken, base)).toMatchObject({
        manifest: true,
        ok: false,
        side: "base",
      });
    },
  );

  it("an added manifest brings every entry; a deleted one none; other files are no manifest", () => {
    const head = read("go", "base", "go.mod");
    expect(added(addedDependencies("go.mod", undefined, head))).toEqual([
      "a new go.mod @1",
      "github.com/stretchr/testify @5",
      "golang.org/x/text @8",
    ]);
    expect(added(addedDependencies("go.mod", head, undefined))).toEqual([]);
    expect(addedDependencies("src/package.json.ts", "", "")).toEqual({ manifest: false });
    expect(addedDependencies("requirements/base.in", "", "x")).toEqual({ manifest: false });
  });

  it("a wrongly typed dependency map is an error, not an empty one", () => {
    const r = addedDependencies("package.json", "{}", '{\n  "dependencies": ["axios"]\n}\n');
    expect(r).toMatchObject({ ok: false, side: "head", line: 2 });
  });
});

describe("protectedPathMatches", () => {
  const bullets: GuardrailBullet[] = [
    { text: "Protected surfaces: `src/auth/`, `migrations/*.sql`", line: 3 },
    { text: "the public API in `src/api/index.ts`", line: 5, under: "Protected surfaces" },
    { text: "Protected: .github/workflows/**, `package-lock.json`", line: 6 },
    { text: "Keep `src/ui/` tidy", line: 7 },
  ];

  it("each form catches the changed paths it names, and nothing else", () => {
    const changed = [
      "src/auth/token.ts",
      "src/authz.ts",
      "migrations/001.sql",
      "migrations/001.md",
      "src/api/index.ts",
      ".github/workflows/ci.yml",
      "package-lock.json",
      "src/ui/button.ts",
    ];
    expect(
      protectedPathMatches(bullets, changed).map((m) => `${m.line} ${m.pattern} ${m.path}`),
    ).toEqual([
      "3 src/auth/ src/auth/token.ts",
      "3 migrations/*.sql migrations/001.sql",
      "5 src/api/index.ts src/api/index.ts",
      "6 .github/workflows/** .github/workflows/ci.yml",
      "6 package-lock.json package-lock.json",
    ]);
  });

  it("with backticks, the prose around them on a Protected: line names no path", () => {
    const b = [{ text: "Protected: `src/auth/**` (owned by security)", line: 9 }];
    expect(
      protectedPathMatches(b, ["src/auth/a.ts", "by/x", "security)"]).map((m) => m.path),
    ).toEqual(["src/auth/a.ts"]);
  });

  it("the honest twin: a PR that changes only unprotected paths matches nothing", () => {
    expect(
      protectedPathMatches(bullets, ["src/authz.ts", "src/ui/button.ts", "docs/auth.md"]),
    ).toEqual([]);
  });
});
