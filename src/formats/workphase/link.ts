import type { Contract, Criterion } from "../../model/contract.js";
import { problem, sortProblems } from "../../model/problems.js";

/** `.workphase/<name>/research.json` beside `.workphase/<name>/plan.json`. */
export function researchPathOf(planPath: string): string {
  return `${planPath.slice(0, planPath.lastIndexOf("/") + 1)}research.json`;
}

/**
 * Resolve a plan's `research:<id>` citations against the research beside it
 * (`undefined`: there is none): "a plan cannot rest on a finding nobody
 * recorded" (003). A citation of an `assumption` — "required because the
 * evidence is missing" — is a blocking manual criterion: "A plan that cites
 * an assumption as if it were a fact is the failure this exists to make
 * visible" (003). Pure; one Map probe per citation.
 */
export function linkResearch(plan: Contract, research: Contract | undefined): Contract {
  if (plan.header.kind !== "workphase-plan") return plan;
  const citations = plan.header.citations ?? [];
  if (citations.length === 0) return plan;
  const researchPath = researchPathOf(plan.path);
  const findings = new Map(
    (research?.header.kind === "workphase-research" ? (research.header.findings ?? []) : []).map(
      (f) => [f.id, f] as const,
    ),
  );
  const problems = [...plan.problems];
  const criteria: Criterion[] = [...plan.criteria];
  const cited = new Set<string>();
  for (const c of citations) {
    const finding = findings.get(c.id);
    if (finding === undefined) {
      problems.push(
        problem(
          "unresolved-citation",
          c.location,
          research === undefined
            ? `research:${c.id} is cited, but there is no ${researchPath}`
            : `research:${c.id} is no finding of ${researchPath}`,
          { hint: "a plan cannot rest on a finding nobody recorded: cite a recorded finding id" },
        ),
      );
      continue;
    }
    if (finding.confidence !== "assumption" || cited.has(c.id)) continue;
    cited.add(c.id);
    criteria.push({
      id: `assumption-${c.id}`,
      title: `cites research:${c.id}, an assumption: ${finding.claim}`,
      location: c.location,
      checks: [],
      settled: {
        status: "manual",
        blocking: true,
        reason: "needs a person: the plan rests on an assumption research could not verify",
      },
    });
  }
  return { ...plan, criteria, problems: sortProblems(problems) };
}
