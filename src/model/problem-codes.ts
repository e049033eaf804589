import type { Severity } from "./contract.js";

/**
 * Every problem code contract-gate can report, with its severity and the one
 * line docs/contracts.md shows. Codes are stable: tools and people match on them.
 * A test checks that every code emitted is listed here and in docs/contracts.md.
 */
export const PROBLEM_CODES = {
  // Input hygiene (every kind)
  "file-too-large": {
    severity: "error",
    kinds: "all",
    doc: "The file is over 1 MiB; nothing in it is read.",
  },
  "nul-byte": {
    severity: "error",
    kinds: "all",
    doc: "The file contains a NUL byte (binary or corrupted); nothing in it is read.",
  },
  "invalid-utf8": {
    severity: "error",
    kinds: "all",
    doc: "The file is not valid UTF-8; nothing in it is read.",
  },
  "file-unreadable": {
    severity: "error",
    kinds: "all",
    doc: "The file could not be read (missing, a directory, or no permission).",
  },
  "worktree-modified": {
    severity: "error",
    kinds: "all",
    doc: "The contract, its plan, evidence or research in the working tree differs from the commit the gate compared: a step before the gate changed it after checkout, so the contract runs nothing (the action always; the CLI with `CI` set or `--committed`).",
  },
  "symlinked-contract": {
    severity: "error",
    kinds: "all",
    doc: "A contract, its plan or its evidence file is a symlink (or lies under one); it is never read through the link, and the message names where the link leads.",
  },
  "unsafe-path": {
    severity: "error",
    kinds: "all",
    doc: "A path in the contract is not repo-relative: absolute, drive letter, UNC, backslash, control character, `~` or a `..` segment.",
  },
  "invalid-regex": {
    severity: "error",
    kinds: "all",
    doc: "A regular expression (`pattern`, `expect_stdout_match`, `EXPECT: /re/`) does not compile.",
  },

  // JSON and schema (plan-contract; the shared JSON reader for every JSON kind)
  "json-syntax": {
    severity: "error",
    kinds: "all JSON",
    doc: "The file is not valid JSON (line and column of the first error).",
  },
  "json-duplicate-key": {
    severity: "error",
    kinds: "all JSON",
    doc: "An object has the same key twice; the second would silently replace the first.",
  },
  "unknown-key": {
    severity: "error",
    kinds: "plan-contract, workphase-*",
    doc: "A key the schema does not define (often a typo: a hint names the closest known key). Planner files warn instead (`planner-unknown-key`).",
  },
  "ignored-key": {
    severity: "warning",
    kinds: "plan-contract",
    doc: 'A check carries another check type\'s key at its empty or default value (`"pattern": ""`, `"expect": "present"` on `file-exists`), as generators write it; the key is ignored.',
  },
  "advisory-path": {
    severity: "warning",
    kinds: "plan-contract",
    doc: "A path in `context_files` (advisory: no check reads it) is absolute or leaves the repository.",
  },
  "missing-key": { severity: "error", kinds: "all JSON", doc: "A required key is absent." },
  "wrong-type": {
    severity: "error",
    kinds: "all JSON",
    doc: "A value has the wrong JSON type (e.g. a string where a number is required).",
  },
  "invalid-value": {
    severity: "error",
    kinds: "plan-contract, planner-plan, planner-qr, workphase-research",
    doc: "A value has the right type but is not allowed (enum member, integer range, timestamp format, empty string).",
  },
  "unsupported-version": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`version` is not 1, the only schema version supported.",
  },
  "persona-deprecated": {
    severity: "warning",
    kinds: "plan-contract",
    doc: '`persona: "data"` was dropped by the v1 locked decisions; use `backend`.',
  },
  "phase-mismatch": {
    severity: "error",
    kinds: "plan-contract",
    doc: "The `phase` field differs from the N in the file name `phase-N-contract.json`.",
  },

  // plan-contract: the 11 validation rules of the format
  "duplicate-task-id": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 1: two tasks share an id.",
  },
  "invalid-task-id": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 2: a task id does not match `^T\\d+$`.",
  },
  "unknown-dependency": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 3: `depends_on` names a task id that does not exist.",
  },
  "dependency-cycle": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 4: `depends_on` forms a cycle (the message names it, e.g. `T1 → T3 → T1`).",
  },
  "wave-order": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 5: a task's wave is not greater than the wave of every task it depends on.",
  },
  "no-verification": {
    severity: "error",
    kinds: "plan-contract, spec",
    doc: "Rule 6: a task has an empty `verification` list; a spec has no Verification command.",
  },
  "file-list-overlap": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 7: a file appears in more than one of `files_modify`, `files_create`, `files_delete`.",
  },
  "unsafe-command": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 8: a `command-exit` command contains whitespace, a newline or a shell metacharacter; put arguments in `args`.",
  },
  "no-success-criteria": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 9: `success_criteria` is empty.",
  },
  "action-too-long": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 10: `action` is longer than 500 characters.",
  },
  "invalid-evidence": {
    severity: "error",
    kinds: "plan-contract",
    doc: "Rule 11: an `evidence_required` path is not repo-relative, or its `matcher` is not a valid regex.",
  },

  // plan-contract: drift against phase-N-plan.md
  "plan-drift": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` differs from the SHA-256 of `phase-N-plan.md`; the plan changed after the contract was compiled.",
  },
  "plan-missing": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is set but `phase-N-plan.md` is not beside the contract.",
  },
  "invalid-plan-hash": {
    severity: "error",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is not `sha256:` followed by 64 lowercase hex digits.",
  },
  "drift-check-disabled": {
    severity: "warning",
    kinds: "plan-contract",
    doc: "`source_plan_hash` is empty or absent, so plan drift cannot be detected.",
  },

  // oracle-contract: the markdown grammar, fail-closed
  "no-criteria": {
    severity: "error",
    kinds: "all",
    doc: "No `## ACCEPTANCE CRITERIA` section, or no criteria in it; a phase contract with no tasks, or no checks in any task.",
  },
  "unclosed-fence": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*",
    doc: "A fenced code block is never closed, so the rest of the file would be hidden.",
  },
  "partial-oracle": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion has `CHECK:` without `EXPECT:` or `EXPECT:` without `CHECK:`.",
  },
  "unindented-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`CHECK:`/`EXPECT:`/`EVIDENCE:`/`CWD:` at column 0; attributes must be indented under their criterion.",
  },
  "orphan-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "An attribute belongs to no criterion (before the first, or after a refused duplicate id).",
  },
  "duplicate-criterion-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "Two criteria share an id.",
  },
  "duplicate-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "The same attribute appears twice on one criterion.",
  },
  "empty-attribute": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`CHECK:` or `EXPECT:` has an empty value, or `EXPECT: /re/` matches the empty string (either would match anything).",
  },
  "missing-evidence": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "A runnable criterion (with `CHECK:`/`EXPECT:`) has no `EVIDENCE:` line to record its outcome.",
  },
  "abandon-missing-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` names no criterion id.",
  },
  "abandon-unknown-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` names a criterion id that does not exist.",
  },
  "abandon-blank-reason": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` has no reason; an abandonment must say why.",
  },
  "abandon-duplicate": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A second `ABANDON:` for the same criterion.",
  },
  "hidden-structure": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*",
    doc: "A heading, `status:` line, criterion, oracle keyword or fence inside an HTML comment or `[//]: # (...)` definition, which GitHub does not show; or a comment hiding part of a `CHECK:`/`EXPECT:`/`CWD:` value.",
  },
  "empty-heading": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A `##` heading with no text; it would silently end the section above it.",
  },
  "duplicate-status": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "More than one `status:` line in the header.",
  },
  "oracle-outside-criteria": {
    severity: "error",
    kinds: "oracle-contract",
    doc: "`CHECK:`/`EXPECT:`/`EVIDENCE:`/`CWD:`/`ABANDON:` outside `## ACCEPTANCE CRITERIA` (the message names the heading); it would never run.",
  },
  "keyword-near-miss": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger, spec, speckit-*",
    doc: "A line that reads as a keyword, criterion or heading but is not written exactly (lower case, zero-width or bidi characters, look-alike letters).",
  },
  "misplaced-abandon": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "`ABANDON:` indented or written as a list item; only column 0 counts.",
  },
  "misplaced-gate": {
    severity: "error",
    kinds: "gates-ledger",
    doc: "A gate line (`- [ ] G2: ...`) indented, quoted, inside another list item or numbered: GitHub shows it as a gate, but only `- [ ] <id>:` at column 0 is read, so it would never run.",
  },
  "invalid-criterion-id": {
    severity: "error",
    kinds: "oracle-contract, gates-ledger",
    doc: "A criterion numbered like `4b.` or `2)`: ids are whole numbers followed by `.`.",
  },

  // JSON kinds: which kind a file is (docs/contracts.md)
  "kind-mismatch": {
    severity: "error",
    kinds: "all JSON",
    doc: "The file's name says one kind (`qr-<phase>.json`, `context.json`, `*plan.json`, `.workphase/*/research.json`, ...) but its top level has another kind's shape; it is not read as either.",
  },
  "foreign-file": {
    severity: "error",
    kinds: "all",
    doc: "A file at a kind's path (its name or its glob) has none of that kind's identifying keys or headings: another tool's file, an older format, a README. One error at line 1 names what it looks like; nothing in it is read, and it still blocks until it is moved or left out of the globs.",
  },
  "not-a-planner-plan": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "A `*plan.json` under a planner glob has none of the planner's top-level keys (`milestones`, `planning_context`, ...); it is skipped, and named so that it is not skipped silently.",
  },

  // planner-plan, planner-context, planner-qr (seed 002)
  "planner-unknown-key": {
    severity: "warning",
    kinds: "planner-*",
    doc: "A key the planner's schema does not define; its own validator ignores extras, so this only warns.",
  },
  "duplicate-id": {
    severity: "error",
    kinds: "planner-*, workphase-research, spec, speckit-*",
    doc: "Two entries share an id that something references: decisions, milestones, code intents, diagrams, a diagram's nodes, waves, quality-review items, research findings.",
  },
  "duplicate-change-id": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "Two `code_changes` of a milestone share an id; nothing references these ids, and real plans repeat them.",
  },
  "absolute-path": {
    severity: "warning",
    kinds: "planner-plan",
    doc: "A milestone's `files`, a code intent's or change's `file`, or a `file:` test is an absolute path (`/workspaces/<repo>/...`); a `file:` test with one becomes a manual criterion.",
  },
  "unresolved-reference": {
    severity: "error",
    kinds: "planner-plan, spec, speckit-*",
    doc: "A cross-reference resolves to nothing: `intent_ref` to an intent of the same milestone, `decision_refs`/`decision_ref` to a decision, an edge to a node of the same diagram, `milestone:M-XXX` and `waves[].milestones` to a milestone.",
  },
  "milestone-wave": {
    severity: "error",
    kinds: "planner-plan",
    doc: "A milestone is in no wave, or in more than one (waves run in order; each milestone runs once).",
  },
  "qr-phase": {
    severity: "error",
    kinds: "planner-qr",
    doc: "`phase` is not one of `plan-design`, `plan-code`, `plan-docs`, `impl-code`, `impl-docs`, or differs from the phase in the file name.",
  },
  "qr-iteration": {
    severity: "error",
    kinds: "planner-qr",
    doc: '`iteration` is not an integer from 1 to 5 ("Maximum 5 iterations per QR phase").',
  },
  "qr-finding": {
    severity: "error",
    kinds: "planner-qr",
    doc: "A `FAIL` item has no `finding`, or a `PASS` item has one.",
  },

  // workphase-research, workphase-plan (seed 003)
  "invalid-finding-id": {
    severity: "error",
    kinds: "workphase-research",
    doc: "A finding id does not match `^[a-z0-9][a-z0-9_-]{0,63}$` (it must read unambiguously in `research:<id>`).",
  },
  "legacy-research": {
    severity: "warning",
    kinds: "workphase-research",
    doc: "A finding lacks `id` or `confidence` (the form sealed before ids existed); it is read as `legacy-<n>` and `inference`. Accepted only when the file is unchanged since the PR base (`legacy-research-changed`).",
  },
  "item-count": {
    severity: "error",
    kinds: "workphase-*",
    doc: "A list is over its bound of 64 entries, or `findings`/`changes` is empty.",
  },
  "not-single-line": {
    severity: "error",
    kinds: "workphase-*",
    doc: "A value is empty where required, longer than 500 bytes after trimming, or spans lines: a sealed artifact is a set of short claims.",
  },
  "unresolved-citation": {
    severity: "error",
    kinds: "workphase-plan",
    doc: "`research:<id>` in the plan names no finding of the `research.json` beside it (or there is none): a plan cannot rest on a finding nobody recorded.",
  },

  // spec, speckit-spec, speckit-tasks (seed 004 and GitHub's spec-kit)
  "spec-status": {
    severity: "error",
    kinds: "spec",
    doc: "No `SPEC STATUS: READY` / `SPEC STATUS: NEEDS CLARIFICATION` line, two of them, one written otherwise (`Ready`, bold), one that is not the last non-empty line, or READY while a question is still open.",
  },
  "spec-syntax": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A requirement, scenario, acceptance criterion, Verification or Requirement Map line that does not follow its grammar (the message says which form is expected).",
  },
  "uncovered-requirement": {
    severity: "error",
    kinds: "spec",
    doc: "A requirement (not `[REMOVED]`) that no `Scenario:` line and no acceptance criterion names.",
  },
  "no-requirement-map": {
    severity: "warning",
    kinds: "spec, speckit-spec",
    doc: "The spec has requirements but no `## Requirement Map`: nothing says which test proves each.",
  },
  "unmapped-requirement": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "The `## Requirement Map` exists but has no line for a requirement (not `[REMOVED]`).",
  },
  "manual-not-allowed": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A map line says `manual:` for a requirement the spec's `## Verification` does not name in a `- manual: FR-… — <why>` line.",
  },
  "missing-test-file": {
    severity: "error",
    kinds: "spec, speckit-spec",
    doc: "A map line names a test file that does not exist at the commit gated.",
  },
  "missing-section": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "A section spec-kit's template marks mandatory is missing (by the template generation the file follows: the first template has no Success Criteria).",
  },
  "task-syntax": {
    severity: "error",
    kinds: "speckit-spec, speckit-tasks",
    doc: "A checkbox line under a `## Phase` heading starts with a task id but does not follow `- [ ] T001 [P] [US1] <description>`.",
  },
  "phantom-completion": {
    severity: "error",
    kinds: "speckit-spec, speckit-tasks",
    doc: "A task marked done names a repository path (a token with a `/` ending in a known extension or in `/`) that exists neither from the root nor beside the spec (spec-kit issue #1865).",
  },
  "plan-clarification": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "`plan.md`'s Technical Context still says NEEDS CLARIFICATION.",
  },
  "unchecked-checklist": {
    severity: "warning",
    kinds: "speckit-spec",
    doc: "An unchecked item in a `checklists/*.md` beside the spec.",
  },
  // Sharding over a job matrix (docs/sharding.md): reported by the merge, on the shard's report
  "shard-report-missing": {
    severity: "error",
    kinds: "all",
    doc: "A shard of the matrix left no report where the merge looked (its job failed or was cancelled before uploading): its contracts never ran, so the merged gate fails.",
  },
  "shard-report-invalid": {
    severity: "error",
    kinds: "all",
    doc: "A shard report is truncated, oversized, not JSON or not the report's schema, or its name disagrees with its `shard` block: none of it is used.",
  },
  "shard-report-mismatch": {
    severity: "error",
    kinds: "all",
    doc: "A shard report is from another commit, gate version, workflow run, scope or shard count than the merge: none of it is used.",
  },
  "shard-report-duplicate": {
    severity: "error",
    kinds: "all",
    doc: "Two shard reports claim one index with the same run attempt (a later attempt wins): neither is used.",
  },
  "shard-scope-mismatch": {
    severity: "error",
    kinds: "all",
    doc: "The shards' contracts are not exactly the merge's scope: a contract outside it, in two shards, or in none.",
  },
} as const satisfies Record<string, { severity: Severity; kinds: string; doc: string }>;

export type ProblemCode = keyof typeof PROBLEM_CODES;
