import { members } from "../formats/kiro/index.js";
import type { KiroCriterion, KiroHeader, KiroTask } from "../model/contract.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/** The normative words of a criterion: softening one (SHALL → SHOULD, dropped) weakens it. */
const NORMATIVE = /\b(?:SHALL|MUST)\b/g;

/**
 * A Kiro spec (requirements.md with its design.md and tasks.md, as the
 * loader links them) against its version at the merge base. Kiro's spec is
 * what tasks are built and properties tested against, so a PR may not weaken
 * it on its own: an acceptance criterion removed or its SHALL softened, a
 * task done at base unchecked or dropped, a design property dropped or
 * validating less, and a task the PR itself checks while a file it names
 * does not exist (a phantom completion) all block until an approving review
 * acknowledges them. Adding criteria, tasks and properties never blocks;
 * rewording a criterion that keeps its SHALL warns. Pure.
 */
export function kiroFindings(base: ContractVersion, head: ContractVersion | undefined): Finding[] {
  if (head === undefined || head.path !== base.path || head.contract.kind !== "kiro-spec") {
    return [
      finding({
        code: "contract-removed",
        contract: base.path,
        kind: base.contract.kind,
        path: base.path,
        line: 1,
        subject: "contract",
        message:
          head === undefined || head.path !== base.path
            ? `${base.path} was deleted or renamed out of the contract globs, so its Kiro spec no longer gates anything`
            : `${base.path} became a ${head.contract.kind} contract`,
      }),
    ];
  }
  const b = base.contract.header as KiroHeader;
  const h = head.contract.header as KiroHeader;
  const out: Finding[] = [];
  const at = (path: string, line: number, subject: string) => ({
    contract: head.path,
    kind: head.contract.kind,
    path,
    line,
    subject,
  });
  criteriaFindings(b, h, head.path, at, out);
  propertyFindings(b, h, at, out);
  taskFindings(b, h, at, out);
  return out;
}

type At = (
  path: string,
  line: number,
  subject: string,
) => Omit<Finding, "code" | "blocking" | "message">;

function criteriaFindings(
  b: KiroHeader,
  h: KiroHeader,
  path: string,
  at: At,
  out: Finding[],
): void {
  const now = new Map<string, KiroCriterion>();
  for (const r of h.requirements) for (const c of r.criteria) now.set(c.id, c);
  const heads = new Map(h.requirements.map((r) => [r.id, r]));
  for (const r of b.requirements) {
    for (const c of r.criteria) {
      const n = now.get(c.id);
      if (n === undefined) {
        out.push(
          finding({
            code: "kiro-criterion-removed",
            ...at(path, heads.get(r.id)?.location.line ?? 1, c.id),
            message: `acceptance criterion ${c.id} was removed: the tasks and properties that cite it no longer have it to meet`,
            before: c.text,
          }),
        );
        continue;
      }
      if (n.text === c.text) continue;
      const was = c.text.match(NORMATIVE)?.length ?? 0;
      const is = n.text.match(NORMATIVE)?.length ?? 0;
      out.push(
        finding({
          code: is < was ? "kiro-criterion-softened" : "kiro-criterion-reworded",
          ...at(path, n.location.line, c.id),
          message:
            is < was
              ? `acceptance criterion ${c.id} lost ${was - is === 1 ? "a" : was - is} SHALL: what the system must do became optional`
              : `acceptance criterion ${c.id} was reworded`,
          before: c.text,
          after: n.text,
        }),
      );
    }
  }
}

function propertyFindings(b: KiroHeader, h: KiroHeader, at: At, out: Finding[]): void {
  const base = b.design?.properties ?? [];
  if (base.length === 0) return;
  const path = h.design?.path ?? b.design!.path;
  const now = new Map((h.design?.properties ?? []).map((p) => [p.id, p]));
  for (const p of base) {
    const n = now.get(p.id);
    const cited = new Set(n?.refs.flatMap(members) ?? []);
    const dropped = [...new Set(p.refs.flatMap(members))].filter((id) => !cited.has(id));
    if (n !== undefined && dropped.length === 0) continue;
    out.push(
      finding({
        code: "kiro-property-removed",
        ...at(path, n?.location.line ?? 1, `Property ${p.id}`),
        message:
          n === undefined
            ? `design property ${p.id} (${p.title}) was removed: it no longer says what the tests must hold`
            : `design property ${p.id} no longer validates ${dropped.join(", ")}`,
        before: `Property ${p.id}: ${p.title}`,
      }),
    );
  }
}

function taskFindings(b: KiroHeader, h: KiroHeader, at: At, out: Finding[]): void {
  const path = h.tasks?.path ?? b.tasks?.path;
  if (path === undefined) return;
  const before = new Map((b.tasks?.tasks ?? []).map((t) => [t.id, t]));
  const now = new Map((h.tasks?.tasks ?? []).map((t) => [t.id, t]));
  for (const t of b.tasks?.tasks ?? []) {
    const n = now.get(t.id);
    if (!t.done || n?.done) continue;
    out.push(
      finding({
        code: "kiro-task-unchecked",
        ...at(path, n?.location.line ?? 1, `task ${t.id}`),
        message:
          n === undefined
            ? `task ${t.id}, done at the base, was removed`
            : `task ${t.id} was done at the base and is open at head`,
        before: t.title,
      }),
    );
  }
  for (const t of h.tasks?.tasks ?? []) {
    if (!t.done || before.get(t.id)?.done || !t.missing?.length) continue;
    out.push(phantom(t, path, at));
  }
}

function phantom(t: KiroTask, path: string, at: At): Finding {
  return finding({
    code: "kiro-task-phantom",
    ...at(path, t.location.line, `task ${t.id}`),
    message: `task ${t.id} is checked in this PR, but ${t.missing!.join(", ")}, named in it, does not exist at head`,
    after: t.title,
  });
}
