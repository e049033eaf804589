import type {
  ContractKind,
  RequirementModel,
  SpecHeader,
  Task,
  TaskList,
} from "../model/contract.js";
import { contractRemoved } from "./removed.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/** The requirement-spec kinds: compared by `specFindings`. */
export const SPEC_KINDS: ReadonlySet<ContractKind> = new Set([
  "spec",
  "speckit-spec",
  "speckit-tasks",
]);

/**
 * A requirement spec (or task list) against its version at the merge base.
 * The requirement-spec workflow (seed 004) proves each requirement by id
 * with a mapped test, re-runs the Verification itself and checks the
 * Guardrails against the diff, so a PR may not weaken any of them on its
 * own: a requirement removed, renumbered, reworded or descoped (`[REMOVED]`),
 * a map line removed or pointed at another test, a guardrail or Verification
 * line removed or changed, and READY going to anything else all block until
 * an approving review acknowledges them. Adding requirements, scenarios,
 * tests and guardrails never blocks. Other wording and unchecked tasks warn.
 * Pure.
 */
export function specFindings(
  base: ContractVersion,
  head: ContractVersion | undefined,
  changed?: ReadonlySet<string>,
): Finding[] {
  if (head === undefined || head.path !== base.path || head.contract.kind !== base.contract.kind) {
    return [
      contractRemoved(
        base,
        head === undefined || head.path !== base.path
          ? `${base.path} was deleted or renamed out of the contract globs, so its requirements no longer gate anything`
          : `${base.path} became a ${head.contract.kind} contract`,
      ),
    ];
  }
  const b = base.contract.header as SpecHeader;
  const h = head.contract.header as SpecHeader;
  const out: Finding[] = [];
  const at = (line: number, subject: string) => ({
    contract: head.path,
    kind: head.contract.kind,
    path: head.path,
    line,
    subject,
  });
  if (b.model && h.model) modelFindings(b.model, h.model, at, out);
  if (b.tasks && h.tasks) {
    taskFindings(b.tasks.tasks, h.tasks.tasks, at, out);
    if (changed) untouchedFindings(b.tasks.tasks, h.tasks, changed, at, out);
  }
  // Other wording (a spec's, not a task list's: checking tasks off is progress).
  if (b.model && out.length === 0 && base.text !== head.text) {
    const headLines = new Set(head.text.split("\n"));
    const baseLines = new Set(base.text.split("\n"));
    const changed = [...baseLines].find((l) => l.trim() !== "" && !headLines.has(l));
    const added = [...headLines].find((l) => l.trim() !== "" && !baseLines.has(l));
    if (changed !== undefined) {
      out.push(
        finding({
          code: "spec-wording-changed",
          ...at(1, "wording"),
          message: "text outside the requirements changed",
          before: changed.trim(),
          ...(added !== undefined && { after: added.trim() }),
        }),
      );
    }
  }
  return out;
}

type At = (line: number, subject: string) => Omit<Finding, "code" | "blocking" | "message">;

function modelFindings(b: RequirementModel, h: RequirementModel, at: At, out: Finding[]): void {
  const head = new Map(h.requirements.map((r) => [r.id, r]));
  const byText = new Map(h.requirements.map((r) => [r.text, r]));
  for (const r of b.requirements) {
    const now = head.get(r.id);
    if (now === undefined) {
      const moved = byText.get(r.text);
      out.push(
        moved
          ? finding({
              code: "requirement-renumbered",
              ...at(moved.location.line, r.id),
              message: `${r.id} is now ${moved.id}: the map, scenarios and proofs name requirements by id`,
              before: r.id,
              after: moved.id,
            })
          : finding({
              code: "requirement-removed",
              ...at(1, r.id),
              message: `${r.id} was removed; mark it [REMOVED] in a reviewed change instead`,
              before: r.text,
            }),
      );
      continue;
    }
    if (r.tag !== "REMOVED" && now.tag === "REMOVED") {
      out.push(
        finding({
          code: "requirement-descoped",
          ...at(now.location.line, r.id),
          message: `${r.id} is now tagged [REMOVED]: it no longer needs a test`,
          before: r.tag ?? "(no tag)",
          after: "REMOVED",
        }),
      );
    }
    if (now.text !== r.text) {
      out.push(
        finding({
          code: "requirement-changed",
          ...at(now.location.line, r.id),
          message: `${r.id}'s statement changed`,
          before: r.text,
          after: now.text,
        }),
      );
    }
  }

  const headMap = new Map((h.map?.entries ?? []).map((e) => [e.requirement.id, e]));
  for (const e of b.map?.entries ?? []) {
    const now = headMap.get(e.requirement.id);
    const was = target(e.target);
    if (now === undefined || target(now.target) !== was) {
      out.push(
        finding({
          code: "map-changed",
          ...at(now?.location.line ?? h.map?.location.line ?? 1, `map ${e.requirement.id}`),
          message:
            now === undefined
              ? `the map line for ${e.requirement.id} was removed`
              : `${e.requirement.id} is mapped to another test`,
          before: was,
          ...(now && { after: target(now.target) }),
        }),
      );
    }
  }

  const bullet = (g: RequirementModel["guardrails"][number]) =>
    g.under === undefined ? g.text : `${g.under} / ${g.text}`;
  const guardrails = new Set(h.guardrails.map(bullet));
  for (const g of b.guardrails) {
    if (guardrails.has(bullet(g))) continue;
    out.push(
      finding({
        code: "guardrail-changed",
        ...at(1, "guardrail"),
        message: "a guardrail was removed or changed",
        before: bullet(g),
      }),
    );
  }

  verificationFindings(b.verification, h.verification, at, out);

  if (b.status?.value === "READY" && h.status?.value !== "READY") {
    out.push(
      finding({
        code: "spec-status-changed",
        ...at(h.status?.location.line ?? 1, "status"),
        message: "the spec was READY at the base and is not at head",
        before: "SPEC STATUS: READY",
        after: h.status ? `SPEC STATUS: ${h.status.value}` : "(no valid status line)",
      }),
    );
  }
}

/**
 * A Verification line removed or changed blocks; so does one whose `proves`
 * list drops an acceptance criterion, since that criterion then falls back to
 * its requirements' proof (or to nothing). The same command proving more is
 * no finding: adding acceptance criteria never blocks. A base line counts as
 * kept by a head line with the same command that proves all it proved.
 */
function verificationFindings(
  base: RequirementModel["verification"],
  head: RequirementModel["verification"],
  at: At,
  out: Finding[],
): void {
  const manual = new Set(head.filter((v) => v.kind === "manual").map(verificationText));
  const commands = head.filter((v) => v.kind === "command");
  for (const v of base) {
    const text = verificationText(v);
    if (v.kind === "manual") {
      if (!manual.has(text))
        out.push(
          finding({
            code: "verification-changed",
            ...at(1, "verification"),
            message: "a Verification line was removed or changed",
            before: text,
          }),
        );
      continue;
    }
    const same = commands.filter((c) => c.command === v.command);
    const proved = (c: (typeof same)[number]) => new Set(c.proves.map((p) => p.id));
    if (same.some((c) => v.proves.every((p) => proved(c).has(p.id)))) continue;
    const closest = same[0];
    const dropped = closest ? v.proves.filter((p) => !proved(closest).has(p.id)) : [];
    out.push(
      finding({
        code: "verification-changed",
        ...at(closest?.location.line ?? 1, "verification"),
        message: closest
          ? `\`${v.command}\` no longer proves ${dropped.map((p) => p.id).join(", ")}`
          : "a Verification line was removed or changed",
        before: text,
        ...(closest && { after: verificationText(closest) }),
      }),
    );
  }
}

function taskFindings(b: readonly Task[], h: readonly Task[], at: At, out: Finding[]): void {
  const head = new Map(h.map((t) => [t.id, t]));
  for (const t of b) {
    const now = head.get(t.id);
    if (!t.done || now === undefined || now.done) continue;
    out.push(
      finding({
        code: "task-unchecked",
        ...at(now.location.line, t.id),
        message: `task ${t.id} was done at the base and is unchecked at head`,
      }),
    );
  }
}

/**
 * spec-kit issue #1865's phantom completions, against the base: a task the PR
 * checks off (or adds done) whose description names paths, none of which the
 * PR changes. A warning, not an error: an earlier commit may have done the
 * work (the static rule already blocks a named path that does not exist).
 * A path counts as touched when the PR changes it or, for a directory, a file
 * under it, named from the root or from the task list's directory.
 */
function untouchedFindings(
  b: readonly Task[],
  h: TaskList,
  changed: ReadonlySet<string>,
  at: At,
  out: Finding[],
): void {
  const before = new Map(b.map((t) => [t.id, t]));
  const dir = h.path.slice(0, h.path.lastIndexOf("/") + 1);
  const touched = (p: string) => {
    const path = p.replace(/\/+$/, "");
    for (const c of changed) if (c === path || c.startsWith(`${path}/`)) return true;
    return false;
  };
  for (const t of h.tasks) {
    if (!t.done || before.get(t.id)?.done || t.paths.length === 0) continue;
    if (t.paths.some((p) => touched(p.id) || (dir !== "" && touched(dir + p.id)))) continue;
    const named = t.paths.map((p) => p.id).join(", ");
    out.push(
      finding({
        code: "task-done-untouched",
        ...at(t.location.line, t.id),
        message: `task ${t.id} became done in this PR, but the PR changes none of the paths it names (${named}): check that an earlier commit did it`,
        after: t.text,
      }),
    );
  }
}

function target(
  t: { kind: "test"; file: string; name: string } | { kind: "manual"; text: string },
): string {
  return t.kind === "test" ? `${t.file} > ${t.name}` : `manual: ${t.text}`;
}

function verificationText(v: RequirementModel["verification"][number]): string {
  return v.kind === "command"
    ? `\`${v.command}\`${v.proves.length ? ` — proves ${v.proves.map((p) => p.id).join(", ")}` : ""}`
    : `manual: ${v.requirement.id} — ${v.why}`;
}
