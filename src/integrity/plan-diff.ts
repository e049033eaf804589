import type { PlanHeader } from "../model/contract.js";
import { alignChecks, asObj, canonical, type Obj } from "./check-align.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

/** One field-level difference between the base and head of a plan contract. */
interface Change {
  subject: string;
  /** A task or check that is gone. */
  dropped?: true;
  /** A check kept but changed: replaced, a field changed, evidence removed. */
  changedCheck?: true;
  message: string;
  before?: string;
  after?: string;
  /** Head criterion id (`T1.2`) or task id to place the finding. */
  anchor: { task: string; check?: number };
}

/**
 * Findings for a JSON phase contract changed in place (same file, or renamed
 * within the globs). A regeneration (plan and hash both changed, the hash
 * matching the new plan) may add tasks and checks; a drop or a change of a
 * check it keeps blocks, as in place. Any other change to a generated contract is an in-place edit
 * and blocks, listed field by field. `generated_by` is read at base: a PR
 * that flips it to `manual` is itself a finding, never an exemption.
 */
export function planFindings(base: ContractVersion, head: ContractVersion): Finding[] {
  const out: Finding[] = [];
  const bh = base.contract.header as PlanHeader;
  const hh = head.contract.header as PlanHeader;
  const locate = placer(head);
  const at = (line: number, subject: string) => ({
    contract: head.path,
    kind: "plan-contract" as const,
    path: head.path,
    line,
    subject,
  });

  if (typeof bh.version === "number" && typeof hh.version === "number" && hh.version < bh.version) {
    out.push(
      finding({
        code: "version-decreased",
        ...at(locate.field("version"), "version"),
        message: `version decreased from ${bh.version} to ${hh.version}`,
        before: String(bh.version),
        after: String(hh.version),
      }),
    );
  }
  if (bh.generatedBy !== hh.generatedBy) {
    out.push(
      finding({
        code: "generated-by-changed",
        ...at(locate.field("generated_by"), "generated_by"),
        message:
          hh.generatedBy === "manual"
            ? "generated_by was changed to manual, which would exempt this and later edits"
            : "generated_by changed",
        before: bh.generatedBy ?? "(none)",
        after: hh.generatedBy ?? "(none)",
      }),
    );
  }
  if (canonical(base.json) === canonical(head.json)) return out;

  const changes = diffPlan(base.json, head.json);
  const regenerated =
    base.planDigest !== head.planDigest &&
    bh.sourcePlanHash !== hh.sourcePlanHash &&
    head.planDigest !== null &&
    head.planDigest !== undefined &&
    hh.sourcePlanHash === head.planDigest;
  const place = (c: Change) => at(locate.anchor(c.anchor), c.subject);
  const fields = (c: Change) => ({
    message: c.message,
    ...(c.before !== undefined ? { before: c.before } : {}),
    ...(c.after !== undefined ? { after: c.after } : {}),
  });

  if (regenerated) {
    // Additions are free; a dropped or changed check needs approval, however the plan changed.
    for (const c of changes) {
      if (c.dropped) out.push(finding({ code: "regeneration-dropped", ...place(c), ...fields(c) }));
      else if (c.changedCheck) {
        out.push(finding({ code: "regeneration-changed", ...place(c), ...fields(c) }));
      }
    }
    return out;
  }
  const code = bh.generatedBy === "manual" ? "manual-edit" : "in-place-edit";
  if (base.json === undefined) {
    out.push(
      finding({
        code,
        ...at(1, "contract"),
        message:
          "the contract changed and its base version is not JSON, so the change cannot be listed field by field",
      }),
    );
    return out;
  }
  const why =
    code === "in-place-edit"
      ? " (plan and source_plan_hash unchanged: an in-place edit of a generated contract)"
      : "";
  for (const c of changes) {
    out.push(finding({ code, ...place(c), ...fields({ ...c, message: `${c.message}${why}` }) }));
  }
  return out;
}

/** Every difference, checks first, each placed on its head task or check. */
function diffPlan(base: unknown, head: unknown): Change[] {
  const out: Change[] = [];
  const bTasks = tasksOf(base);
  const hTasks = tasksOf(head);
  const hById = new Map(hTasks.map((t) => [t.id, t]));
  for (const bt of bTasks) {
    const ht = hById.get(bt.id);
    if (ht === undefined) {
      out.push({
        subject: `task ${bt.id}`,
        dropped: true,
        message: `task ${bt.id} with ${bt.checks.length} check${bt.checks.length === 1 ? "" : "s"} was dropped`,
        before: `${bt.id} ${String(bt.value.title ?? "")}`.trim(),
        anchor: { task: bt.id },
      });
      continue;
    }
    for (const [bi, hi] of alignChecks(bt.checks, ht.checks)) {
      out.push(...checkChanges(bt.id, bi, hi, bt.checks, ht.checks));
    }
    const other = changedKeys(bt.value, ht.value, ["id", "verification"]);
    if (other.length > 0) {
      out.push({
        subject: `task ${bt.id}`,
        message: `task ${bt.id} changed: ${other.join(", ")}`,
        before: other.map((k) => `${k}: ${show(bt.value[k])}`).join("\n"),
        after: other.map((k) => `${k}: ${show(ht.value[k])}`).join("\n"),
        anchor: { task: bt.id },
      });
    }
  }
  const baseIds = new Set(bTasks.map((t) => t.id));
  for (const ht of hTasks) {
    if (baseIds.has(ht.id)) continue;
    out.push({
      subject: `task ${ht.id}`,
      message: `task ${ht.id} was added`,
      after: `${ht.id} ${String(ht.value.title ?? "")}`.trim(),
      anchor: { task: ht.id },
    });
  }
  // generated_by and version have findings of their own; `$schema` only points an
  // editor at the JSON Schema (the gate never reads it), so adding it is no edit.
  const top = changedKeys(asObj(base), asObj(head), [
    "tasks",
    "generated_by",
    "version",
    "$schema",
  ]);
  if (top.length > 0) {
    out.push({
      subject: "contract",
      message: `changed: ${top.join(", ")}`,
      before: top.map((k) => `${k}: ${show(asObj(base)[k])}`).join("\n"),
      after: top.map((k) => `${k}: ${show(asObj(head)[k])}`).join("\n"),
      anchor: { task: "" },
    });
  }
  return out;
}

/**
 * A check is named by its task id and its position among that task's checks
 * at base (`T1 check 2`); a new one by its position at head.
 */
function checkChanges(
  task: string,
  bi: number | undefined,
  hi: number | undefined,
  baseChecks: readonly unknown[],
  headChecks: readonly unknown[],
): Change[] {
  const b = bi === undefined ? undefined : baseChecks[bi];
  const h = hi === undefined ? undefined : headChecks[hi];
  const anchor = hi === undefined ? { task } : { task, check: hi };
  if (bi === undefined) {
    const subject = `${task} new check ${hi! + 1}`;
    return [{ subject, message: `${subject} was added`, after: show(h), anchor }];
  }
  const subject = `${task} check ${bi + 1}`;
  const bo = asObj(b);
  const type = String(bo.type ?? "?");
  if (hi === undefined) {
    return [
      {
        subject: `${subject} (${type})`,
        dropped: true,
        message: `${subject} (${type}) was dropped`,
        before: show(b),
        anchor,
      },
    ];
  }
  const ho = asObj(h);
  if (bo.type !== ho.type) {
    return [
      {
        subject: `${subject} type`,
        changedCheck: true,
        message: `${subject} was replaced by a check of another type`,
        before: show(b),
        after: show(h),
        anchor,
      },
    ];
  }
  const out: Change[] = [];
  for (const key of changedKeys(bo, ho, ["evidence_required"])) {
    out.push({
      subject: `${subject} (${type}) ${key}`,
      changedCheck: true,
      message: describeField(subject, type, key, bo[key], ho[key]),
      before: bo[key] === undefined ? "(none)" : show(bo[key]),
      after: ho[key] === undefined ? "(none)" : show(ho[key]),
      anchor,
    });
  }
  const bEvidence = Array.isArray(bo.evidence_required) ? bo.evidence_required : [];
  const hEvidence = new Set(
    (Array.isArray(ho.evidence_required) ? ho.evidence_required : []).map(canonical),
  );
  for (const e of bEvidence) {
    if (hEvidence.has(canonical(e))) continue;
    out.push({
      subject: `${subject} (${type}) evidence_required`,
      changedCheck: true,
      message: `${subject}: an evidence_required entry was removed or changed`,
      before: show(e),
      anchor,
    });
  }
  if (bEvidence.length < hEvidence.size) {
    out.push({
      subject: `${subject} (${type}) evidence_required`,
      message: `${subject}: evidence_required entries were added`,
      anchor,
    });
  }
  return out;
}

function describeField(subject: string, type: string, key: string, b: unknown, h: unknown) {
  if (key === "expect" && b === "present" && h === "absent") {
    return `${subject} (${type}): expect flipped from present to absent`;
  }
  if (h === undefined) return `${subject} (${type}): ${key} was removed`;
  if (b === undefined) return `${subject} (${type}): ${key} was added`;
  return `${subject} (${type}): ${key} changed`;
}

interface TaskValue {
  id: string;
  value: Obj;
  checks: unknown[];
}

function tasksOf(doc: unknown): TaskValue[] {
  const tasks = asObj(doc).tasks;
  if (!Array.isArray(tasks)) return [];
  const seen = new Set<string>();
  const out: TaskValue[] = [];
  for (const [i, t] of tasks.entries()) {
    const value = asObj(t);
    // A task without a string id is named by its position, so it is still compared.
    const id = typeof value.id === "string" ? value.id : `tasks[${i}]`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, value, checks: Array.isArray(value.verification) ? value.verification : [] });
  }
  return out;
}

function changedKeys(b: Obj, h: Obj, skip: readonly string[]): string[] {
  const keys = new Set([...Object.keys(b), ...Object.keys(h)]);
  return [...keys].filter((k) => !skip.includes(k) && canonical(b[k]) !== canonical(h[k])).sort();
}

function show(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** Lines at head: a check's criterion, else its task, else the top-level field, else 1. */
function placer(head: ContractVersion) {
  const criteria = new Map(head.contract.criteria.map((c) => [c.id, c.location.line]));
  const tasks = new Map(
    (head.contract.header as PlanHeader).tasks.map((t) => [t.id, t.location.line]),
  );
  const lines = head.text.split("\n");
  const field = (key: string) => {
    const i = lines.findIndex((l) => l.includes(`"${key}"`));
    return i === -1 ? 1 : i + 1;
  };
  return {
    field,
    anchor(a: { task: string; check?: number }): number {
      if (a.check !== undefined) {
        const line = criteria.get(`${a.task}.${a.check + 1}`);
        if (line !== undefined) return line;
      }
      return tasks.get(a.task) ?? 1;
    },
  };
}
