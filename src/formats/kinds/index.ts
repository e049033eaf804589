import type { ContractKind } from "../../model/contract.js";
import { hasIdentifyingHeading } from "../markdown/identify.js";
import { asRead } from "../markdown/normalize.js";
import { jsonKindOf, PLANNER_GLOBS, WORKPHASE_GLOBS } from "./json.js";
import { OPENSPEC_GLOBS, openspecKindOf } from "./openspec.js";

/**
 * unlazy's ledgers (its `references/gates.md` and `lib/gates.mjs`): the
 * legacy single-pipeline layout, `GATES.md` and `gates/*.md` at the root, and
 * one pipeline per scope, `.unlazy/<scope>/GATES.md` and
 * `.unlazy/<scope>/gates/*.md`; a tree of `gates/` subdirectories is read too.
 */
export const LEDGER_GLOBS: readonly string[] = [
  "GATES.md",
  "gates/**/*.md",
  ".unlazy/*/GATES.md",
  ".unlazy/*/gates/**/*.md",
];
/** Requirement specs (seed 004, spec-kit): `specs/<NNN>-<slug>/spec.md` and the `tasks.md` beside it. */
export const SPEC_GLOBS: readonly string[] = ["specs/*/spec.md", "specs/*/tasks.md"];

/** Kiro specs (`.kiro/specs/<feature>/`): one contract each, read through its requirements.md. */
export const KIRO_GLOBS: readonly string[] = [".kiro/specs/*/requirements.md"];

/** Default discovery globs, relative to the repository root (docs/contracts.md and the README's "Your first contract"). */
export const DEFAULT_CONTRACT_GLOBS: readonly string[] = [
  ".planning/phase-*-contract.json",
  ".claude/tasks/contracts/**/*.md",
  ...PLANNER_GLOBS,
  ...WORKPHASE_GLOBS,
  ...LEDGER_GLOBS,
  ...SPEC_GLOBS,
  ...KIRO_GLOBS,
  ...OPENSPEC_GLOBS,
];

/**
 * The kind of a contract file, decided by its name (and, for `.workphase/`,
 * its place) so that contracts found through custom globs parse the same way
 * as discovered ones. Each parser then confirms the kind by the file's shape.
 */
export function kindOf(path: string): ContractKind | undefined {
  if (path.endsWith(".json")) return jsonKindOf(path);
  if (path.endsWith(".md")) {
    if (isKiroPath(path)) return "kiro-spec";
    const openspec = openspecKindOf(path);
    if (openspec !== "none") return openspec;
    return specKindOf(path) ?? (isLedgerPath(path) ? "gates-ledger" : "oracle-contract");
  }
  return undefined;
}

/** The kinds whose requirement proof a sharded run's merge reads from the diff itself (docs/proof.md). */
export function isRequirementSpec(path: string): boolean {
  const kind = kindOf(path);
  return kind === "spec" || kind === "speckit-spec" || kind === "speckit-tasks";
}

const KIRO_FILE = /(?:^|\/)\.kiro\/specs\/(?:[^/]+\/)+(?:requirements|design|tasks)\.md$/;

/**
 * A Kiro spec's three files, wherever the globs find them (an archived
 * `.kiro/specs/_archived/<feature>/` too): never read as
 * another kind's (a Kiro `requirements.md` is no oracle contract, its
 * `tasks.md` no spec-kit task list).
 */
function isKiroPath(path: string): boolean {
  return KIRO_FILE.test(path);
}

/**
 * A `.md` path is a ledger when its name is `GATES.md`, or it lies in a
 * `gates/` directory at the root or of an `.unlazy/<scope>/`: wherever the
 * glob that found it, so a file is read the same way by default and custom
 * globs. Markdown contracts keep their own directory.
 */
function isLedgerPath(path: string): boolean {
  if (path.startsWith(".claude/tasks/contracts/")) return false;
  const parts = path.split("/");
  if (parts[parts.length - 1] === "GATES.md") return true;
  if (parts[0] === "gates" && parts.length >= 2) return true;
  return parts.length >= 4 && parts[0] === ".unlazy" && parts[2] === "gates";
}

/**
 * `spec.md` and `tasks.md` are requirement specs wherever the globs find them
 * (the `specs/` root is configurable), except among the markdown contracts'
 * own ledger. The spec parser tells the two layouts apart by the first heading.
 */
function specKindOf(path: string): ContractKind | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name !== "spec.md" && name !== "tasks.md") return undefined;
  if (path.startsWith(".claude/tasks/contracts/") || path.includes("/.claude/tasks/contracts/")) {
    return undefined;
  }
  return name === "spec.md" ? "spec" : "speckit-tasks";
}

const GATE_LINE = /^[-*+][ \t]+\[[ xX]\](?:[ \t]|$)/;

/**
 * Whether a markdown file is a ledger at all: a `# Gates` heading, or a gate
 * line anywhere (look-alike letters read as shown). A README or notes file
 * in `gates/` has neither and is `foreign-file`, not a ledger of no gates.
 */
export function isLedger(lines: readonly string[]): boolean {
  if (hasIdentifyingHeading(lines, ["GATES"])) return true;
  return lines.some((line) => GATE_LINE.test(asRead(line)));
}
