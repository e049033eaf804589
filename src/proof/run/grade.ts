import type { Location, MapEntry } from "../../model/contract.js";
import type { ProofVerdict, ProvedTest, TestOutcome } from "../types.js";
import { canonicalName } from "./results.js";
import type { Invocation } from "./side.js";

/** A mapped test, as the proof grades it. */
export interface GradedEntry {
  requirement: string;
  file: string;
  name: string;
  mapLocation: Location;
  /** New or changed since the base: it must fail there. */
  changed: boolean;
}

/** One side's answer for one mapped test. */
export type SideAnswer =
  | { kind: "outcome"; outcome: TestOutcome; loadFailed: boolean }
  | { kind: "error"; message: string };

/** The map entries of one spec that name a test, with whether their requirement changed. */
export function gradedEntries(
  entries: readonly MapEntry[],
  changed: ReadonlySet<string>,
): GradedEntry[] {
  const out: GradedEntry[] = [];
  for (const e of entries) {
    if (e.target.kind !== "test") continue;
    out.push({
      requirement: e.requirement.id,
      file: e.target.file,
      name: e.target.name,
      mapLocation: e.location,
      changed: changed.has(e.requirement.id),
    });
  }
  return out;
}

/**
 * What one side reported for a mapped test: the one case with its full
 * name in its file (or, where the runner names no file, the one case with
 * that name when no other mapped file has a test of that name); `absent`
 * when none, with whether the file failed to load. Two candidates, or a
 * file-less name two mapped files share, is an ambiguity: an error.
 */
export function answerFor(
  entry: Pick<GradedEntry, "file" | "name">,
  side: readonly Invocation[],
  all: readonly Pick<GradedEntry, "file" | "name">[],
): SideAnswer {
  const inv = side.find((i) => i.files.includes(entry.file));
  if (inv === undefined) return { kind: "error", message: `${entry.file} was not run` };
  if (inv.run.error !== undefined || inv.results === undefined) {
    return { kind: "error", message: inv.run.error?.message ?? "the run reported nothing" };
  }
  const name = canonicalName(entry.name);
  const named = inv.results.cases.filter((c) => c.name === name);
  const inFile = named.filter((c) => c.files?.includes(entry.file));
  const fileless = named.filter((c) => c.files === undefined);
  const hits = inFile.length > 0 ? inFile : fileless;
  if (hits.length > 1) {
    return {
      kind: "error",
      message: `${hits.length} results of the ${inv.run.side} run are named "${entry.name}": the map line cannot tell which`,
    };
  }
  if (hits.length === 1 && inFile.length === 0) {
    const sharing = all.filter(
      (o) => o.file !== entry.file && inv.files.includes(o.file) && canonicalName(o.name) === name,
    );
    if (sharing.length > 0) {
      return {
        kind: "error",
        message: `the ${inv.run.side} run's results name no file, and "${entry.name}" is also mapped in ${sharing[0]!.file}: ambiguous`,
      };
    }
  }
  const hit = hits[0];
  if (hit === undefined) {
    return {
      kind: "outcome",
      outcome: "absent",
      loadFailed: inv.results.loadFailed.has(entry.file),
    };
  }
  return { kind: "outcome", outcome: hit.outcome, loadFailed: false };
}

const AT = (o: TestOutcome, loadFailed: boolean) =>
  o === "absent" ? (loadFailed ? "absent (its file failed to load)" : "absent") : o;

/**
 * The grading table (docs/proof.md, "Grading"), SWE-bench's way, pure.
 * No retries: one head answer, one base answer.
 */
export function gradeTest(
  entry: GradedEntry,
  head: SideAnswer,
  base: SideAnswer | undefined,
): ProvedTest {
  const row = (
    verdict: ProofVerdict,
    reason: string,
    extra: Partial<ProvedTest> = {},
  ): ProvedTest => ({
    requirement: entry.requirement,
    file: entry.file,
    name: entry.name,
    mapLocation: entry.mapLocation,
    changed: entry.changed,
    ...(base?.kind === "outcome" && { base: base.outcome }),
    head: head.kind === "outcome" ? head.outcome : "absent",
    verdict,
    reason,
    ...extra,
  });
  const line = `${entry.mapLocation.path}:${entry.mapLocation.line}`;
  if (head.kind === "error")
    return row("execution-error", `execution error at head: ${head.message}`);
  const unreported =
    head.outcome === "absent" &&
    !head.loadFailed &&
    (base === undefined ||
      base.kind === "error" ||
      (base.outcome === "absent" && !base.loadFailed));
  if (unreported) {
    return row(
      "execution-error",
      `no run reports ${entry.file} > ${entry.name} (map line ${line}): check the file and the test's full name as its runner reports it`,
    );
  }

  if (!entry.changed) {
    if (head.outcome !== "passed") {
      return row(
        "invariant-broken",
        `invariant broken: ${AT(head.outcome, head.loadFailed)} at head`,
      );
    }
    const failedAtBase =
      base?.kind === "outcome" && (base.outcome === "failed" || base.outcome === "errored");
    return row(
      "invariant-holds",
      "invariant holds: passes at head",
      failedAtBase
        ? { warning: `an invariant that ${base.outcome} on the code before this change` }
        : {},
    );
  }

  if (head.outcome !== "passed") {
    return row("not-passing-at-head", `not proven: ${AT(head.outcome, head.loadFailed)} at head`);
  }
  if (base === undefined)
    return row("execution-error", "execution error: the base run did not run");
  if (base.kind === "error")
    return row("execution-error", `execution error at base: ${base.message}`);
  switch (base.outcome) {
    case "failed":
    case "errored":
      return row(
        "proven",
        `proven: ${base.outcome} on the code before this change, passes at head`,
      );
    case "passed":
      return row("passes-at-base", "proves nothing: passes on the code before this change");
    case "skipped":
      return row("skipped-at-base", "not proven: skipped on the code before this change");
    case "absent":
      return base.loadFailed
        ? row(
            "proven",
            "proven: its file failed to load on the code before this change, passes at head",
          )
        : // The file loaded and ran, yet the test was not there: nothing shows it fails without the change.
          row(
            "skipped-at-base",
            "not proven: not run on the code before this change, though its file loaded",
          );
  }
}
