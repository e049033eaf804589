import type { CheckOutcome, ContractOutcome, CriterionOutcome } from "../../src/verdict.js";

/** Hand-made outcomes covering every status, for renderer tests. */
export function sampleOutcomes(): ContractOutcome[] {
  const check = (
    o: Partial<CheckOutcome> & Pick<CheckOutcome, "type" | "result" | "reason">,
  ): CheckOutcome => ({
    durationMs: 12,
    ...o,
  });
  const crit = (
    o: Partial<CriterionOutcome> & Pick<CriterionOutcome, "id" | "status" | "blocking" | "reason">,
  ): CriterionOutcome => ({
    title: `criterion ${o.id}`,
    location: { path: ".claude/tasks/contracts/c.md", line: 10 },
    checks: [],
    ...o,
  });
  return [
    {
      path: ".claude/tasks/contracts/c.md",
      kind: "oracle-contract",
      verdict: "fail",
      problems: [],
      criteria: [
        crit({
          id: "1",
          status: "met",
          blocking: false,
          reason: "exit 0, marker found",
          checks: [
            check({
              type: "oracle",
              result: "pass",
              reason: "exit 0, marker found",
              exitCode: 0,
              detail: "all good",
            }),
          ],
        }),
        crit({
          id: "2",
          title: "tests pass for @octocat <b>bold</b> | pipe",
          status: "unmet",
          blocking: true,
          reason: "exit 7 (nonzero), marker present",
          checks: [
            check({
              type: "oracle",
              result: "fail",
              failureReason: "verification-criteria-unmet",
              reason: "exit 7 (nonzero), marker present",
              exitCode: 7,
              detail: "FAIL src/a.test.ts\n```\n</details> @admin\nTESTS-OK",
            }),
          ],
        }),
        crit({
          id: "3",
          status: "error",
          blocking: true,
          reason: "timed out after 120 s (process tree killed)",
          checks: [
            check({
              type: "oracle",
              result: "partial",
              failureReason: "verification-execution-error",
              reason: "timed out after 120 s (process tree killed)",
            }),
          ],
        }),
        crit({
          id: "4",
          status: "manual",
          blocking: false,
          reason: "no oracle: a reviewer decides",
        }),
        crit({
          id: "5",
          status: "abandoned",
          blocking: true,
          reason: "ABANDON: needs production data",
        }),
      ],
    },
    {
      path: ".planning/phase-2-contract.json",
      kind: "plan-contract",
      verdict: "invalid",
      problems: [
        {
          code: "unknown-key",
          severity: "error",
          message: '"must_contian" is not a known key',
          path: ".planning/phase-2-contract.json",
          line: 31,
          column: 13,
          hint: 'did you mean "must_contain"?',
        },
      ],
      criteria: [
        crit({
          id: "T1.1",
          group: "T1",
          status: "not-run",
          blocking: true,
          reason: "not run: the contract is invalid (1 error)",
          location: { path: ".planning/phase-2-contract.json", line: 28 },
        }),
      ],
    },
  ];
}
