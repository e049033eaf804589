import { z } from "zod";

/** Problems listed for one list's entries before the rest of the list is left unchecked. */
export const MAX_LISTED_ISSUES = 1000;

/** A list schema: `z.array(item)`, with at least `min` entries when given. */
export type ListOf = <T extends z.ZodType>(item: T, min?: number) => z.ZodType<z.output<T>[]>;

/** `z.array(item)`, with `.min(min)` when given: the plain lists, for the JSON Schema export. */
export const plainList: ListOf = (item, min) =>
  min === undefined ? z.array(item) : z.array(item).min(min);

/**
 * `z.array(item)` (and `.min(min)`) that stops checking entries once they
 * have given MAX_LISTED_ISSUES issues, and says so in one more issue
 * (`params.unchecked`: how many entries were left). Why: zod hands a
 * child's issues to its parent with `push(...issues)`, so a 1 MiB list of
 * 500,000 wrong-type entries overflowed the call stack (a parser that throws
 * instead of reporting), and a list of 350,000 empty tasks made 3.8 million
 * issue objects (seconds of garbage collection). The contract is invalid
 * either way; nobody reads past a thousand problems in one list. The output
 * is the input: no schema here transforms a value. The list is taken as it
 * is (`z.custom`), with `z.array`'s issue when it is not an array, rather
 * than by `z.array(z.unknown())`, which copied every entry of a
 * 500,000-entry list (~30 ms per MiB) before the first check.
 */
export const list: ListOf = <T extends z.ZodType>(item: T, min?: number) => {
  const whole = z.array(item);
  const bounded = z
    .custom<unknown>(() => true)
    .superRefine((value, ctx) => {
      if (!Array.isArray(value)) {
        ctx.addIssue({ expected: "array", code: "invalid_type", input: value });
        return;
      }
      // Short lists (every honest one) in one pass of zod's own array loop, the
      // fast way; entry by entry only when that gives too many issues to list.
      if (value.length <= MAX_LISTED_ISSUES) {
        const result = whole.safeParse(value);
        if (result.success) return;
        if (result.error.issues.length <= MAX_LISTED_ISSUES) {
          for (const issue of result.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
          return;
        }
      }
      let listed = 0;
      for (let i = 0; i < value.length; i++) {
        const result = item.safeParse(value[i]);
        if (result.success) continue;
        for (const issue of result.error.issues) {
          ctx.addIssue({ ...issue, path: [i, ...issue.path] } as z.core.$ZodRawIssue);
          listed++;
        }
        const left = value.length - i - 1;
        if (listed >= MAX_LISTED_ISSUES && left > 0) {
          ctx.addIssue({
            code: "custom",
            message: `has ${listed} problems in its first ${i + 1} entries; the other ${left} were not checked`,
            params: { unchecked: left },
          });
          return;
        }
      }
    });
  // zod's own length check, so a too-short list (or string) is reported as by `z.array().min()`.
  const checked = min === undefined ? bounded : bounded.check(z.minLength(min));
  return checked as unknown as z.ZodType<z.output<T>[]>;
};

/**
 * How many entries at the end of each list the schema left unchecked, by
 * list path (`tasks`, `tasks/3/verification`), for lists where `list`
 * stopped early. The rules read no further than the schema did: past that
 * point the contract is invalid anyway, and a 1 MiB list of broken tasks
 * would otherwise cost the rules seconds for problems nobody reads.
 */
export function uncheckedCounts(issues: readonly z.core.$ZodIssue[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const issue of issues) {
    const unchecked = issue.code === "custom" ? issue.params?.unchecked : undefined;
    if (typeof unchecked !== "number") continue;
    out.set(issue.path.map(String).join("/"), unchecked);
  }
  return out;
}
