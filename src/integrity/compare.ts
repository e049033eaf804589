import { dirname } from "node:path/posix";
import type { Contract } from "../model/contract.js";
import { lostCriteria, weakenedFindings } from "./effect.js";
import { gatesLedgerFindings } from "./gates-diff.js";
import { kiroFindings } from "./kiro-diff.js";
import {
  type DeclaredDeltas,
  NO_DELTAS,
  openspecChangeFindings,
  openspecSpecFindings,
} from "./openspec-diff.js";
import { oracleFindings } from "./oracle-diff.js";
import { reorderedFindings } from "./order.js";
import { planFindings } from "./plan-diff.js";
import { qrFindings, qrRemoved } from "./qr-diff.js";
import { contractRemoved } from "./removed.js";
import { SPEC_KINDS, specFindings } from "./spec-diff.js";
import { type RunContext, whyNotRun } from "./successor-runs.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";
import { type HeadCitations, legacyResearch, researchRemoved } from "./workphase-diff.js";

/** Base and head of one touched contract; a side is absent when the file is not there. */
export interface VersionPair {
  base?: ContractVersion;
  head?: ContractVersion;
  /** The head path when the file is there but was not read (a symlink): it gates nothing either. */
  unreadHead?: string;
  /** Renamed to a path that is no contract: why (see `notAContractReason`). */
  movedTo?: string;
  /** OpenSpec: what the PR's deltas say of a main spec's capability; a closed change's open tasks. */
  openspec?: {
    declared?: DeclaredDeltas;
    closed?: { archivedTo?: string; openTasks: { id: string; line: number; path: string }[] };
  };
}

/**
 * Every finding for the touched contracts. Pure. `supersedes` maps a
 * superseded path to the head contract that names it (see `supersededPaths`);
 * `cites` maps a research path to the head plan beside it that cites it;
 * `heads` holds the head contracts that may supersede others, by path;
 * `changed`, the paths the PR changes (relative to the contracts' root), when known;
 * `run`, what decides whether a successor runs (its branch, the scope).
 */
export function compareContracts(
  pairs: readonly VersionPair[],
  supersedes: ReadonlyMap<string, string>,
  cites: ReadonlyMap<string, HeadCitations> = new Map(),
  heads: ReadonlyMap<string, Contract> = new Map(),
  changed?: ReadonlySet<string>,
  run: RunContext = {},
): Finding[] {
  const out: Finding[] = [];
  for (const pair of pairs) {
    const found = pairFindings(pair, supersedes, cites, changed);
    out.push(...found);
    const { base, head } = pair;
    // By effect: a change no rule above blocks may still leave a blocking criterion behind.
    if (base === undefined || found.some((f) => f.blocking)) continue;
    const by = supersedes.get(base.path);
    const successor = by === undefined ? undefined : heads.get(by);
    const idle = successor === undefined ? undefined : whyNotRun(successor, run);
    const carriers: Contract[] = [];
    // A rename into the successor (git pairs similar files) makes the head the successor.
    if (head !== undefined && head.contract.kind === base.contract.kind) {
      if (idle === undefined || head.path !== successor?.path) carriers.push(head.contract);
    }
    if (successor !== undefined && idle !== undefined) {
      // A successor that runs nothing keeps nothing: what no other carrier keeps is removed.
      out.push(...removedBySuccessor(base.contract, carriers, successor.path, idle));
      continue;
    }
    if (successor !== undefined && successor.path !== head?.path) carriers.push(successor);
    const weakened = weakenedFindings(base.contract, carriers, head?.path ?? successor?.path);
    out.push(...weakened);
    // A weakened criterion already blocks: its replacement reordering the rest adds nothing.
    if (weakened.length === 0) out.push(...reorderedFindings(base.contract, carriers));
  }
  return out;
}

/**
 * One blocking `criterion-removed` per base criterion that could block and
 * that only a successor which runs nothing would carry: the supersession
 * took it over and nothing of it runs. It names the successor and why.
 */
function removedBySuccessor(
  base: Contract,
  carriers: readonly Contract[],
  successor: string,
  why: string,
): Finding[] {
  return lostCriteria(base, carriers).map((c) =>
    finding({
      code: "criterion-removed",
      contract: successor,
      kind: base.kind,
      path: successor,
      line: 1,
      subject: `criterion ${c.id}`,
      message: `criterion ${c.id} (${c.title}) of ${base.path} could block at base; ${successor} supersedes it but runs nothing: ${why}`,
      before: c.title,
    }),
  );
}

/** The findings of one touched contract by the rules of its kind and form. */
function pairFindings(
  { base, head, unreadHead, movedTo, openspec }: VersionPair,
  supersedes: ReadonlyMap<string, string>,
  cites: ReadonlyMap<string, HeadCitations>,
  changed: ReadonlySet<string> | undefined,
): Finding[] {
  const out: Finding[] = [];
  if (head?.contract.kind === "workphase-research") {
    // Added research has no base; a base of another kind is no earlier version of it.
    out.push(
      ...legacyResearch(base?.contract.kind === head.contract.kind ? base : undefined, head),
    );
  }
  if (base === undefined) return out; // a new contract: nothing at base to protect
  if (base.contract.kind === "gates-ledger") {
    out.push(...gatesLedgerFindings(base, head));
    return out;
  }
  if (base.contract.kind === "kiro-spec") {
    out.push(...kiroFindings(base, head));
    return out;
  }
  if (base.contract.kind === "openspec-spec") {
    const same = head?.path === base.path && head.contract.kind === base.contract.kind;
    out.push(
      ...openspecSpecFindings(base, same ? head : undefined, openspec?.declared ?? NO_DELTAS),
    );
    return out;
  }
  if (base.contract.kind === "openspec-change") {
    // Edits to an active change are its authors' work; closing it with work left is the finding.
    if (head?.path !== base.path) {
      out.push(...openspecChangeFindings(base, openspec?.closed ?? { openTasks: [] }));
    }
    return out;
  }
  if (SPEC_KINDS.has(base.contract.kind)) {
    out.push(...specFindings(base, head, changed));
    return out;
  }
  if (base.contract.kind !== "plan-contract" && base.contract.kind !== "oracle-contract") {
    out.push(...jsonKindFindings(base, head, cites));
    return out;
  }
  const by = supersedes.get(base.path);
  // A rename into the superseding contract (git pairs similar files) is a supersession too.
  const replaced = by !== undefined && head !== undefined && head.path !== base.path;
  if (head === undefined || replaced || head.contract.kind !== base.contract.kind) {
    const at = {
      contract: base.path,
      kind: base.contract.kind,
      path: base.path,
      line: 1,
      subject: "contract",
    };
    out.push(
      by !== undefined && base.contract.kind === "oracle-contract"
        ? finding({
            code: "contract-superseded",
            ...at,
            message: `${base.path} is gone at head; ${by} supersedes it`,
          })
        : contractRemoved(
            base,
            unreadHead !== undefined
              ? `${unreadHead} is not a regular file at head (a symlink or a submodule), so ${base.path} no longer gates anything`
              : movedTo !== undefined && head === undefined
                ? `${base.path} was renamed, and ${movedTo}: nothing of it runs`
                : head === undefined || replaced
                  ? `${base.path} was deleted or renamed out of the contract globs, so it no longer gates anything`
                  : `${base.path} became ${head.path}, a contract of another kind`,
            base.contract.kind === "oracle-contract"
              ? undefined
              : "a JSON phase contract cannot be superseded",
          ),
    );
    return out;
  }
  if (by !== undefined && base.text !== head.text) {
    out.push(
      finding({
        code: "superseded-edited",
        contract: head.path,
        kind: head.contract.kind,
        path: head.path,
        line: 1,
        subject: "contract",
        message: `${head.path} is superseded by ${by}; a superseded contract may stay or go, never change`,
      }),
    );
    return out;
  }
  out.push(
    ...(base.contract.kind === "plan-contract"
      ? planFindings(base, head)
      : oracleFindings(base, head)),
  );
  return out;
}

/**
 * The planner and workphase kinds against their base: a QR file's
 * changes and deletion are warnings; deleting research a head plan cites
 * blocks. Planner plans and context files and workphase plans are rewritten
 * by their tools as work proceeds: the issue names no rule for their edits or
 * deletion, so they are no finding.
 */
function jsonKindFindings(
  base: ContractVersion,
  head: ContractVersion | undefined,
  cites: ReadonlyMap<string, HeadCitations>,
): Finding[] {
  const gone =
    head === undefined || head.path !== base.path || head.contract.kind !== base.contract.kind;
  switch (base.contract.kind) {
    case "planner-qr":
      return gone || head === undefined ? [qrRemoved(base)] : qrFindings(base, head);
    case "workphase-research":
      return gone ? researchRemoved(base, cites.get(base.path)) : [];
    default:
      return [];
  }
}

/**
 * Paths named by `supersedes:` in the head contracts → the contract naming
 * each. A value with a `/` is repo-relative (a leading `./` dropped); a bare
 * file name is a sibling of the contract that names it.
 */
export function supersededPaths(contracts: readonly Contract[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of contracts) {
    if (c.header.kind !== "oracle-contract" || c.header.supersedes === undefined) continue;
    const raw = c.header.supersedes.trim().replace(/^\.\//, "");
    const dir = dirname(c.path);
    const path = raw.includes("/") || dir === "." ? raw : `${dir}/${raw}`;
    if (!out.has(path)) out.set(path, c.path);
  }
  return out;
}
