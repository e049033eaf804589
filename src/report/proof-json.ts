import { z } from "zod";
import { TAMPER_CODES } from "../proof/tamper-codes.js";
import type { SpecProof } from "../proof/types.js";

const At = z.object({ path: z.string(), line: z.number().int() });
const Outcome = z.enum(["passed", "failed", "errored", "skipped", "absent"]);

/** `proof` under each spec contract of the JSON report: what docs/proof.md describes. */
export const SpecProofJsonSchema = z.object({
  /** `requirement-proof: off`: mapped requirements stay awaiting proof. */
  enabled: z.boolean(),
  /** The merge base the diff was read against; absent without one. */
  base: z.string().optional(),
  /** Why the mapped requirements stay awaiting proof, when they do. */
  unproved: z.string().optional(),
  runs: z.array(
    z.object({
      side: z.enum(["head", "base"]),
      command: z.string(),
      preset: z.string(),
      chosenBy: z.string(),
      exitCode: z.number().int().optional(),
      /** A run of one mapped test alone: its run's results and exit status disagreed. */
      solo: z.object({ file: z.string(), name: z.string() }).optional(),
      error: z.object({ message: z.string(), hint: z.string() }).optional(),
      /** The runner's last output lines (stdout and stderr), where it printed any. */
      outputTail: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  tests: z.array(
    z.object({
      requirement: z.string(),
      file: z.string(),
      name: z.string(),
      mapLocation: At,
      changed: z.boolean(),
      base: Outcome.optional(),
      head: Outcome,
      verdict: z.enum([
        "proven",
        "passes-at-base",
        "survives-mutants",
        "skipped-at-base",
        "not-passing-at-head",
        "invariant-holds",
        "invariant-broken",
        "execution-error",
      ]),
      reason: z.string(),
      /** An invariant that fails on the code before the change: shown, blocking nothing. */
      warning: z.string().optional(),
      /** Mutation adequacy: the mutants of the changed code tried on its requirement's tests. */
      mutants: z
        .object({
          tried: z.number().int(),
          killed: z.number().int(),
          survived: z.number().int(),
          survivors: z.array(z.string()),
        })
        .optional(),
    }),
  ),
  tamper: z.array(
    z.object({
      code: z.enum(Object.keys(TAMPER_CODES) as [keyof typeof TAMPER_CODES]),
      severity: z.enum(["blocking", "warning"]),
      file: z.string(),
      line: z.number().int(),
      message: z.string(),
      hint: z.string(),
    }),
  ),
  guardrails: z.array(
    z.object({
      code: z.enum([
        "guardrail-protected-path",
        "guardrail-new-dependency",
        "guardrail-manifest-unreadable",
      ]),
      guardrail: At,
      file: z.string(),
      line: z.number().int().optional(),
      message: z.string(),
    }),
  ),
  guardrailRules: z.array(
    z.object({
      location: At,
      text: z.string(),
      rule: z.enum(["protected-paths", "no-new-dependencies", "manual"]),
    }),
  ),
});

export type SpecProofJson = z.infer<typeof SpecProofJsonSchema>;

const at = (l: { path: string; line: number }) => ({ path: l.path, line: l.line });

export function specProofJson(p: SpecProof): SpecProofJson {
  return {
    enabled: p.enabled,
    ...(p.base !== undefined && { base: p.base }),
    ...(p.unproved !== undefined && { unproved: p.unproved }),
    runs: p.runs.map((r) => ({
      side: r.side,
      command: r.command,
      preset: r.preset,
      chosenBy: r.chosenBy,
      ...(r.exitCode !== undefined && { exitCode: r.exitCode }),
      ...(r.solo && { solo: { file: r.solo.file, name: r.solo.name } }),
      ...(r.error && { error: { message: r.error.message, hint: r.error.hint } }),
      ...(r.outputTail !== undefined && { outputTail: r.outputTail }),
      durationMs: Math.round(r.durationMs),
    })),
    tests: p.tests.map((t) => ({
      requirement: t.requirement,
      file: t.file,
      name: t.name,
      mapLocation: at(t.mapLocation),
      changed: t.changed,
      ...(t.base !== undefined && { base: t.base }),
      head: t.head,
      verdict: t.verdict,
      reason: t.reason,
      ...(t.warning !== undefined && { warning: t.warning }),
      ...(t.mutants !== undefined && {
        mutants: { ...t.mutants, survivors: [...t.mutants.survivors] },
      }),
    })),
    tamper: p.tamper.map((t) => ({ ...t })),
    guardrails: p.guardrails.map((g) => ({
      code: g.code,
      guardrail: at(g.guardrail),
      file: g.file,
      ...(g.line !== undefined && { line: g.line }),
      message: g.message,
    })),
    guardrailRules: p.guardrailRules.map((r) => ({
      location: at(r.location),
      text: r.text,
      rule: r.rule,
    })),
  };
}
