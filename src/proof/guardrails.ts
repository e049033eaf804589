import type { Criterion, Location, RequirementModel, SpecLine } from "../model/contract.js";
import { addedDependencies, protectedPathMatches, protectedPatterns } from "./guardrail-deps.js";
import type { FileChange } from "./tamper.js";
import type { GuardrailFinding, GuardrailRule } from "./types.js";

const NO_NEW_DEPENDENCIES = /\bno\s+new\s+dependenc(?:y|ies)\b/i;

/**
 * What the gate does with a `## Guardrails` bullet (docs/proof.md,
 * "Guardrails"): the ones the diff can decide (protected paths, no new
 * dependencies) are checked mechanically; every other one is a manual
 * criterion showing its text. A "Protected surfaces:" heading bullet with
 * its paths nested below names no path itself: only its children are rules.
 */
export function guardrailRules(model: RequirementModel): GuardrailRule[] {
  return model.guardrails.flatMap((g): GuardrailRule[] => {
    const at = { location: g.location, text: g.text };
    if (protectedPatterns(bullet(g)).length > 0) return [{ ...at, rule: "protected-paths" }];
    if (NO_NEW_DEPENDENCIES.test(g.text)) return [{ ...at, rule: "no-new-dependencies" }];
    const parentOfPaths = model.guardrails.some(
      (c) => c.under === g.text && protectedPatterns(bullet(c)).length > 0,
    );
    return parentOfPaths ? [] : [{ ...at, rule: "manual" }];
  });
}

function bullet(g: SpecLine) {
  return { text: g.text, line: g.location.line, ...(g.under !== undefined && { under: g.under }) };
}

/**
 * The guardrails a PR breaks (the seed's evaluator, step E): a changed file
 * (either path of a rename) a protected bullet names, and a package a
 * manifest gains over its base while a bullet forbids new dependencies. A
 * manifest the gate cannot read or parse under that rule blocks as well:
 * breaking a manifest's syntax must not hide a package. Pure.
 */
export function guardrailFindings(
  model: RequirementModel,
  changes: readonly FileChange[],
): GuardrailFinding[] {
  const rules = guardrailRules(model);
  const out: GuardrailFinding[] = [];
  const paths = changes.flatMap((c) => [c.basePath, c.headPath].filter((p) => p !== undefined));
  const bullets = model.guardrails.filter((g) =>
    rules.some((r) => r.rule === "protected-paths" && r.location === g.location),
  );
  for (const m of protectedPathMatches(bullets.map(bullet), paths)) {
    const g = bullets.find((b) => b.location.line === m.line)!;
    out.push({
      code: "guardrail-protected-path",
      guardrail: g.location,
      file: m.path,
      message: `${m.path} is a protected surface (\`${m.pattern}\`, guardrail at line ${m.line}): the PR changes it`,
    });
  }
  const forbid = rules.find((r) => r.rule === "no-new-dependencies");
  if (forbid) for (const c of changes) dependencyFindings(forbid.location, c, out);
  return out.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.code < b.code ? -1 : 1),
  );
}

function dependencyFindings(guardrail: Location, c: FileChange, out: GuardrailFinding[]): void {
  if (c.headPath === undefined) return; // a deleted manifest installs nothing new
  const r = addedDependencies(c.headPath, c.base, c.head);
  if (!r.manifest) return;
  const unreadable = (side: string, path: string) =>
    out.push({
      code: "guardrail-manifest-unreadable",
      guardrail,
      file: path,
      message: `${path} (${side}) could not be read as text, so the gate cannot tell whether it adds a dependency`,
    });
  if (c.head === undefined) return void unreadable("head", c.headPath);
  if (c.basePath !== undefined && c.base === undefined) return void unreadable("base", c.basePath);
  if (!r.ok) {
    out.push({
      code: "guardrail-manifest-unreadable",
      guardrail,
      file: r.side === "base" ? (c.basePath ?? c.headPath) : c.headPath,
      line: r.line,
      message: `${r.message}: the gate cannot tell whether it adds a dependency`,
    });
    return;
  }
  for (const a of r.added) {
    out.push({
      code: "guardrail-new-dependency",
      guardrail,
      file: c.headPath,
      line: a.line,
      message: `${c.headPath} adds ${a.id} (${a.section}) while the guardrail at line ${guardrail.line} forbids new dependencies`,
    });
  }
}

/** Each manual guardrail as a manual criterion (`G1`…) that shows its text. */
export function guardrailCriteria(rules: readonly GuardrailRule[]): Criterion[] {
  return rules
    .filter((r) => r.rule === "manual")
    .map((r, k) => ({
      id: `G${k + 1}`,
      title: `guardrail: ${r.text}`,
      location: r.location,
      checks: [],
      settled: {
        status: "manual" as const,
        blocking: false,
        reason: "a guardrail no diff can decide: a person checks it",
      },
    }));
}
