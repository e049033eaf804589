/**
 * Every integrity finding contract-gate can report when a pull request changes
 * a contract, with whether it blocks and the one line docs/integrity.md shows. Codes
 * are stable: tools and people match on them (the docs/integrity.md table is generated).
 */
export const FINDING_CODES = {
  // Markdown and JSON phase contracts (the planner and workphase kinds have their own rules below)
  "contract-removed": {
    blocking: true,
    kinds:
      "oracle-contract, plan-contract, gates-ledger, spec, speckit-spec, speckit-tasks, kiro-spec",
    doc: "The contract was deleted, renamed to a path that is no contract (out of the discovery globs, into a directory the gate never searches such as `node_modules/`, to a name of no contract kind), or stopped being a regular file (a directory, a symlink, a submodule, any type change: listed in the report too), and no contract at head names it in `supersedes:` (JSON phase contracts cannot be superseded).",
  },
  "contract-superseded": {
    blocking: false,
    kinds: "oracle-contract",
    doc: "The contract was deleted or renamed away, and a contract at head names it in `supersedes:`: allowed when the superseding contract keeps every criterion that could block (else `criterion-weakened` too), shown so a reviewer sees the re-scope.",
  },
  "superseded-edited": {
    blocking: true,
    kinds: "oracle-contract",
    doc: "A contract that a contract at head supersedes was edited: a superseded file may stay or go, never change.",
  },

  // Requirement specs (seed 004, spec-kit)
  "requirement-removed": {
    blocking: true,
    kinds: "spec, speckit-spec",
    doc: "A requirement present at base is gone at head (descope it with `[REMOVED]` in a reviewed change instead).",
  },
  "requirement-renumbered": {
    blocking: true,
    kinds: "spec, speckit-spec",
    doc: "A requirement present at base carries another id at head (same statement, new id).",
  },
  "requirement-changed": {
    blocking: true,
    kinds: "spec, speckit-spec",
    doc: "A requirement's statement changed.",
  },
  "requirement-descoped": {
    blocking: true,
    kinds: "spec",
    doc: "A requirement's tag changed to `[REMOVED]`: it no longer needs a test.",
  },
  "map-changed": {
    blocking: true,
    kinds: "spec, speckit-spec",
    doc: "A `## Requirement Map` line was removed or points at another test (or at `manual:`).",
  },
  "guardrail-changed": {
    blocking: true,
    kinds: "spec",
    doc: "A `## Guardrails` bullet was removed or changed (adding one never blocks).",
  },
  "verification-changed": {
    blocking: true,
    kinds: "spec, speckit-spec",
    doc: "A `## Verification` command or manual entry was removed or changed, or a command's `proves` list dropped an acceptance criterion (the same command proving more is no finding).",
  },
  "spec-status-changed": {
    blocking: true,
    kinds: "spec",
    doc: "`SPEC STATUS: READY` at base is anything else at head.",
  },
  "spec-wording-changed": {
    blocking: false,
    kinds: "spec, speckit-spec",
    doc: "Text outside the requirements, map, guardrails, Verification and status changed (the first changed line is shown).",
  },
  "task-unchecked": {
    blocking: false,
    kinds: "speckit-tasks",
    doc: "A task done at base is unchecked at head.",
  },
  "task-done-untouched": {
    blocking: false,
    kinds: "speckit-tasks",
    doc: "A task became done in the PR, but the PR changes none of the paths it names: a phantom completion, unless an earlier commit did the work.",
  },
  // Kiro specs (.kiro/specs/<feature>/: requirements.md, design.md, tasks.md)
  "kiro-criterion-removed": {
    blocking: true,
    kinds: "kiro-spec",
    doc: "An acceptance criterion `N.M` present at base is gone at head (its requirement removed, or the criterion).",
  },
  "kiro-criterion-softened": {
    blocking: true,
    kinds: "kiro-spec",
    doc: "An acceptance criterion has fewer SHALL (or MUST) at head than at base: `SHALL` → `SHOULD`/`MAY`, or dropped.",
  },
  "kiro-criterion-reworded": {
    blocking: false,
    kinds: "kiro-spec",
    doc: "An acceptance criterion's text changed, keeping every SHALL.",
  },
  "kiro-task-unchecked": {
    blocking: true,
    kinds: "kiro-spec",
    doc: "A task done at base (`- [x]`) is open at head, or was removed.",
  },
  "kiro-property-removed": {
    blocking: true,
    kinds: "kiro-spec",
    doc: "A design property (`### Property N`) present at base is gone at head, or its `Validates:` line no longer cites a criterion it cited.",
  },
  "kiro-task-phantom": {
    blocking: true,
    kinds: "kiro-spec",
    doc: "A task the PR checks names a path in a code span that does not exist at head: a phantom completion by the PR itself (read alone, the gate only warns: `kiro-phantom-completion`).",
  },
  // OpenSpec (openspec-spec main specs, openspec-change folders)
  "openspec-requirement-dropped": {
    blocking: true,
    kinds: "openspec-spec",
    doc: "A main spec's requirement at base is gone at head (or the main spec is), and no delta the PR adds, edits or archives says `REMOVED` (or `RENAMED` from it) for that capability.",
  },
  "openspec-requirement-softened": {
    blocking: true,
    kinds: "openspec-spec",
    doc: "A main spec's requirement says SHALL or MUST fewer times at head than at base (SHALL → SHOULD, MUST → MAY), and no delta of the PR says `MODIFIED` for it.",
  },
  "openspec-scenario-dropped": {
    blocking: true,
    kinds: "openspec-spec",
    doc: "A main spec's requirement lost a `#### Scenario:` it had at base, and no delta of the PR says `MODIFIED` for it.",
  },
  "openspec-change-closed-open": {
    blocking: true,
    kinds: "openspec-change",
    doc: "An active change was moved into `changes/archive/` by the PR with open tasks in its archived `tasks.md`, or deleted while its `tasks.md` at base had open tasks.",
  },

  "check-reordered": {
    blocking: true,
    kinds: "oracle-contract, plan-contract, gates-ledger, spec, speckit-spec",
    doc: "A command check kept from base now has a command before it, or beside it in its wave, that it did not have at base: it moved to a later wave, behind a new `depends_on`, or after a new command check of the same contract (in place, regenerated or superseded). What runs before a check is part of what it checks.",
  },
  "criterion-weakened": {
    blocking: true,
    kinds: "every kind",
    doc: "A criterion that could block at base (a check to run, an `ABANDON`, a QR item recorded `FAIL`, a decision a person must make) is missing, weaker or unchecked at head — removed, a check dropped or changed, its timeout raised more than tenfold, turned manual — whatever form the change took (a `manual` contract edited, a supersession, a file deleted or rewritten by its tool), when no other blocking finding already names the change.",
  },

  // Markdown (oracle) contracts
  "request-changed": {
    blocking: true,
    kinds: "oracle-contract",
    doc: "The REQUEST section changed or was removed; it is immutable.",
  },
  "criterion-removed": {
    blocking: true,
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion present at base is missing at head; criteria are never deleted, only ABANDONed. Also each criterion that could block of a superseded contract whose successor runs nothing — aborted, invalid, drifted, bound by `branch:` to another branch than the PR's, or outside the run's scope — naming the successor and why it does not run.",
  },
  "criterion-renumbered": {
    blocking: true,
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion present at base carries another id at head (same title, new id).",
  },
  "oracle-removed": {
    blocking: true,
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion lost its `CHECK:`/`EXPECT:`: runnable became manual.",
  },
  "oracle-changed": {
    blocking: true,
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion's `CHECK:`, `EXPECT:` or `CWD:` changed, or a manual criterion gained an oracle.",
  },
  "abandon-added": {
    blocking: true,
    kinds: "gates-ledger",
    doc: "A gate ledger gained an `ABANDON:` line: unlazy counts an abandoned gate as resolved, so surrendering a gate needs a reviewer's approval (the abandoned gate blocks the run as well).",
  },
  "abandon-changed": {
    blocking: true,
    kinds: "oracle-contract, gates-ledger",
    doc: "An `ABANDON:` line present at base was removed or rewritten.",
  },
  "status-changed": {
    blocking: true,
    kinds: "oracle-contract",
    doc: "The header's `status:` changed (to `aborted` too: an aborted contract runs nothing).",
  },
  "clarification-changed": {
    blocking: true,
    kinds: "oracle-contract",
    doc: "A CLARIFICATIONS entry present at base was edited or removed; the section is append-only.",
  },
  "ungated-append": {
    blocking: false,
    kinds: "oracle-contract",
    doc: "A criterion, FILE SCOPE or CLARIFICATIONS entry was appended without `[gated <YYYY-MM-DD>]`.",
  },
  "criterion-reworded": {
    blocking: false,
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion's title was reworded (same id).",
  },
  "file-scope-edited": {
    blocking: false,
    kinds: "oracle-contract",
    doc: "A FILE SCOPE entry present at base was edited or removed.",
  },

  // JSON phase contracts
  "in-place-edit": {
    blocking: true,
    kinds: "plan-contract",
    doc: "A generated contract (`generated_by` at base is not `manual`) changed while its plan and `source_plan_hash` did not: one finding per change, before → after (a task or check removed, `expect` flipped, `must_contain`, `pattern`, `command`, `args`, `expected_exit` changed, `evidence_required` entries removed, a check replaced by another type …).",
  },
  "generated-by-changed": {
    blocking: true,
    kinds: "plan-contract",
    doc: "`generated_by` changed, e.g. to `manual`, which would exempt later edits.",
  },
  "version-decreased": {
    blocking: true,
    kinds: "plan-contract",
    doc: "`version` is lower than at base.",
  },
  "regeneration-dropped": {
    blocking: true,
    kinds: "plan-contract",
    doc: "A regeneration (plan and hash both changed, the hash matching the new plan) dropped a task or a check: editing the plan and re-running `refresh-hash` is no way around approval. Adding tasks or checks is no finding.",
  },
  "regeneration-changed": {
    blocking: true,
    kinds: "plan-contract",
    doc: "A regeneration changed a check it kept (a field, its type, an `evidence_required` entry): the gate cannot order two checks by strength, so any change needs approval.",
  },
  "manual-edit": {
    blocking: false,
    kinds: "plan-contract",
    doc: "A hand-written contract (`generated_by: manual` at base) changed: each change listed; a change that drops or alters a check is `criterion-weakened` too (blocking).",
  },

  // Planner quality-review files: warnings only, since upstream deletes a QR file on
  // pass and a re-decompose restarts at iteration 1
  "qr-removed": {
    blocking: false,
    kinds: "planner-qr",
    doc: "The quality-review file was deleted (the planner deletes it when its review passes): shown so a reviewer sees the review end.",
  },
  "qr-pass-changed": {
    blocking: false,
    kinds: "planner-qr",
    doc: "An item that was `PASS` at base changed (its status, check, scope or finding), before → after.",
  },
  "qr-item-added": {
    blocking: false,
    kinds: "planner-qr",
    doc: "An item was added while the file persists.",
  },
  "qr-item-removed": {
    blocking: false,
    kinds: "planner-qr",
    doc: "An item was removed while the file persists.",
  },
  "qr-iteration-decreased": {
    blocking: false,
    kinds: "planner-qr",
    doc: "`iteration` is lower than at base (the counter that caps the review at 5 was wound back).",
  },

  // Workphase research
  "cited-research-removed": {
    blocking: true,
    kinds: "workphase-research",
    doc: "The research file was deleted or moved while the plan beside it at head still cites it (`research:<id>`): a plan cannot rest on a finding nobody recorded. Reported at the plan's first citation.",
  },
  "legacy-research-changed": {
    blocking: true,
    kinds: "workphase-research",
    doc: "The PR adds or changes a research file with findings in the legacy form (no `id` or `confidence`). Unchanged since the base, the legacy form is accepted with the `legacy-research` warning.",
  },

  // The requirement proof's diff readings (docs/proof.md): every PR with a spec contract in scope, any PR with `test-tamper: on`
  "test-file-deleted": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A test file (the `test-files` globs) at base has no head version.",
  },
  "test-file-renamed-away": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A test file was renamed to a path no `test-files` glob matches, so no runner picks it up.",
  },
  "test-removed": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A test the base version of a test file declares is gone at head (by name, per runner; a test moved to another changed test file is no finding). Reported at its line in the base version.",
  },
  "test-marker-added": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A test file has more skip, only or todo markers than at base (`it.skip`, `describe.only`, `{ skip: true }`, `@pytest.mark.skip`, `t.Skip(`, `#[ignore]` …; the table in docs/proof.md).",
  },
  "test-environment-branch": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A non-test file newly recognizes a test environment (`process.env.VITEST`, `JEST_WORKER_ID`, `NODE_ENV === 'test'`, `PYTEST_CURRENT_TEST`, `testing.Testing()` …): code that behaves differently under a test runner makes its tests prove nothing.",
  },
  "test-file-unreadable": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A changed test file's text could not be read on one side (binary, over 1 MiB, not a regular file): the gate cannot tell what changed, so it blocks.",
  },
  "test-config-changed": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A line the PR adds to a test runner's configuration or plugin file (pytest.ini, pyproject.toml, setup.cfg, tox.ini, conftest.py, vitest/vite/jest/playwright configs, .mocharc) narrows what runs or rewrites how it counts: `-k`, `-m`, `--deselect`, `addopts`, `testPathIgnorePatterns`, `exclude`, `passWithNoTests`, `bail`, reporters, setup files, conftest hooks such as `pytest_runtest_makereport`/`pytest_collection_modifyitems`, a mock of the assertion or runner module. Reported at file:line.",
  },
  "test-assertion-unreachable": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "Read from the syntax tree (JavaScript/TypeScript): a test the PR adds or changes returns (or unconditionally throws) before its first assertion, has no assertion at all, or declares `expect.assertions(0)`/`t.plan(0)`; a suite returns before declaring its tests. A test that had it at base (by name, in any file) is no finding. Reported at file:line.",
  },
  "assertion-library-patched": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "Test or source code the PR changes writes to or replaces the assertion library or the runner: `assert.equal = …`, `Object.assign(assert, …)`, `Object.defineProperty(chai.Assertion.prototype, …)`, chai's `overwriteMethod`, an `expect.extend` that replaces a built-in matcher, `vi.mock(\"node:assert\")`, `vi.spyOn(assert, …)`, `expect.setState`, `__vitest_worker__`. A module of the repository's own named assert is not the library. Reported at file:line.",
  },
  "runner-output-reached": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "Test or source code the PR changes reads another process's command line or environment (`/proc/<pid>/cmdline`, `/proc/<pid>/environ`, `process.ppid`) or writes (`writeFile`, `rename`, `copyFile`…, or a child process running `mv`, `cp`, `tee`, a `>` redirect) to a path taken from `process.argv`, the runner's environment or a report's name (`junit`, `outputFile`, `test-results`; not any `.xml`: a sitemap is no report): the verdict's own results. Reported at file:line.",
  },
  "test-process-exit": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "Test code the PR changes calls, takes or sets `process.exit`, `process.reallyExit`, `process.abort` or `process.exitCode`: the runner's exit status is the verdict. Reported at file:line.",
  },
  "file-unparsed": {
    blocking: true,
    kinds: "pull-request (tamper)",
    doc: "A changed test or source file of a language with a syntax-tree tamper reader does not parse: it was read by the spelling tables alone, so what only the tree shows (`it[s]`, an early return) was not looked for. Reported at the line of the syntax error, or at line 1 for a tree too deep to walk.",
  },
  "assertions-fewer": {
    blocking: false,
    kinds: "pull-request (tamper)",
    doc: "A test file has fewer assertions than at base: shown so a reviewer checks none was removed or loosened.",
  },
  "guardrail-protected-path": {
    blocking: true,
    kinds: "spec",
    doc: 'The PR changes a file a `## Guardrails` bullet protects (paths or globs in backticks under "Protected surfaces", or after `Protected:`).',
  },
  "guardrail-new-dependency": {
    blocking: true,
    kinds: "spec",
    doc: 'A `## Guardrails` bullet says "no new dependencies" and a manifest gains a package over its base, read parsed: package.json (its four dependency maps, `overrides`, `resolutions`, `pnpm.overrides`, `bundleDependencies`; an alias or a git, URL or path spec is its target), the lockfiles (package-lock.json, pnpm-lock.yaml, yarn.lock, poetry.lock, uv.lock, Pipfile.lock, Cargo.lock: a package added with no manifest change), requirements*.txt (a new `-r`/`-c`/index option too), pyproject.toml, setup.py and setup.cfg `install_requires`, Pipfile, go.mod, Cargo.toml; a manifest that appears at all counts, even empty.',
  },
  "guardrail-manifest-unreadable": {
    blocking: true,
    kinds: "spec",
    doc: 'A `## Guardrails` bullet says "no new dependencies" and a changed manifest does not read or parse on one side: breaking a manifest\'s syntax must not hide a package.',
  },

  // What a check runs (docs/integrity.md, "What a check runs")
  "check-harness-changed": {
    blocking: true,
    kinds: "every kind",
    doc: "The PR changes what a check at base runs: the `package.json` script, make target, script file, runner configuration, setup file or package-manager configuration its command resolves to (the table below) — the entry it uses, not the whole file — or adds one where the check would read it (a new `pytest.ini`, `.npmrc`, `conftest.py`). Named with the criterion (or `the proof's test command` of a spec with a requirement map), the file and the entry, base → head.",
  },
  "check-harness-unresolved": {
    blocking: false,
    kinds: "every kind",
    doc: "A check's command could not be resolved statically (a command the table does not know, `eval`, a command chosen at run time): a change to what it runs would go unseen, so the check is named with why. Shown when the PR changes a file that is no contract.",
  },

  // The pull request itself, whatever its contracts
  "gate-config-changed": {
    blocking: true,
    kinds: "pull-request",
    doc: "A file the gate's run reaches differs between the merge base and the PR's head: the workflow that runs the gate (`GITHUB_WORKFLOW_REF`) and, transitively, every local reusable workflow a job `uses: ./.github/workflows/…` and every local action a step `uses: ./dir` (its `action.yml`, a composite action's own steps, a JavaScript or Docker action's `main`/`pre`/`post`/`image` file), each read at both sides. On `pull_request` GitHub runs the PR's copy of each, so it could point `contracts:` at nothing, turn `sandbox` off, narrow `scope` or change `untrusted-commands`, `check-network` or the pinned gate version. One finding per changed file, naming it, what calls it, and each of those inputs that changed, before → after. A workflow the run does not reach is not read: changing it is no finding. The repository's root action (`uses: ./`, the gate itself in its own repository) is not followed.",
  },
  "shared-head-other-base": {
    blocking: true,
    kinds: "pull-request",
    doc: "Another open pull request has the same head commit but another base branch (or base repository). A check run belongs to the commit, not to one pull request, so a verdict against this PR's base would also stand for the other PR, whose base was never compared: the gate fails both, and no approval acknowledges it. Close one of them, or push a separate commit for each.",
  },
} as const satisfies Record<string, { blocking: boolean; kinds: string; doc: string }>;

export type FindingCode = keyof typeof FINDING_CODES;

/** docs/integrity.md's finding table, generated so the docs cannot fall behind the code. */
export function findingCodesTable(): string {
  const rows = Object.entries(FINDING_CODES).map(
    ([code, { blocking, kinds, doc }]) =>
      `| \`${code}\` | ${blocking ? "blocking" : "warning"} | ${kinds} | ${doc} |`,
  );
  return ["| finding | effect | kind | meaning |", "|---|---|---|---|", ...rows].join("\n");
}
