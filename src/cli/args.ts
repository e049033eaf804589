import { parseArgs } from "node:util";
import { closest, distance } from "fastest-levenshtein";
import { UsageError } from "../scope/discover.js";

type OptionSpec = { type: "string" | "boolean"; multiple?: boolean; short?: string };
type Options = Record<string, OptionSpec>;

/** `did you mean 'X'?` when one candidate is close enough to be a typo, else "". */
export function didYouMean(word: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  const best = closest(word, [...candidates]);
  // A third of the word, at least 1 and at most 3 edits: `--jsn` → `--json`, not `--x` → `--root`.
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return distance(word, best) <= limit ? ` (did you mean '${best}'?)` : "";
}

/**
 * A negative number after a numeric option (`--timeout-seconds -5`) is that option's
 * value, not another option: node:util would call it "ambiguous". Joined as
 * `--timeout-seconds=-5`, it reaches the option's own range check and its clear message.
 */
function joinNegativeNumbers(args: readonly string[], numeric: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return [...out, ...args.slice(i)];
    const next = args[i + 1];
    if (numeric.has(arg) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Parse a command's argv strictly; every complaint is a usage error (exit 2) that names
 * the option and, for a typo, the option meant.
 */
export function parseCommandArgs<O extends Options>(
  args: readonly string[],
  options: O,
  numeric: readonly string[] = [],
) {
  const joined = joinNegativeNumbers(args, new Set(numeric.map((n) => `--${n}`)));
  try {
    return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(argvMessage(e as Error & { code?: string }, options));
  }
}

function argvMessage(e: Error & { code?: string }, options: Options): string {
  const flags = Object.keys(options).map((name) => `--${name}`);
  const unknown = /^Unknown option '([^']+)'/.exec(e.message);
  if (unknown) {
    const flag = unknown[1]!.split("=")[0]!;
    return `Unknown option '${flag}'${didYouMean(flag, flags)}`;
  }
  const ambiguous = /^Option '([^' ]+)[^']*' argument is ambiguous/.exec(e.message);
  if (ambiguous) {
    return `${ambiguous[1]} needs a value, but an option follows it (write ${ambiguous[1]}=VALUE for a value that starts with '-')`;
  }
  const missing = /^Option '([^' ]+)[^']*' argument missing/.exec(e.message);
  if (missing) return `${missing[1]} needs a value`;
  const noValue = /^Option '([^' ]+)' does not take an argument/.exec(e.message);
  if (noValue) return `${noValue[1]} is a switch and takes no value`;
  // Anything else node:util says is already specific; drop its trailing advice.
  return e.message.split(". To specify")[0] ?? "bad arguments";
}

/** An option's whole-number value in [1, max]; the message says the unit and the range. */
export function positiveInt(
  name: string,
  raw: string | undefined,
  fallback: number,
  unit: string,
  max = 2 ** 31 - 1,
): number {
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= max)) {
    throw new UsageError(
      `--${name} '${raw}' is not a positive integer: a whole number of ${unit} from 1 to ${max} (default ${fallback})`,
    );
  }
  return n;
}
