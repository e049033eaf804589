import type { Location, Problem } from "../../model/contract.js";
import type { ProblemCode } from "../../model/problem-codes.js";
import { problem } from "../../model/problems.js";

/** Where each step of the markdown parser reports its problems. */
export interface ProblemSink {
  push(p: Problem): void;
  /**
   * Whether a problem of `code` at `at` would go past the limit. When it
   * would, it is counted here and the caller need not build it: building
   * 300,000 messages nobody reads costs more than the parse.
   */
  full(code: ProblemCode, at: Location): boolean;
}

/** How many problems of one code a contract lists before summarising the rest. */
export const PER_CODE_LIMIT = 100;

interface Count {
  listed: number;
  dropped: number;
  hint?: string;
  firstDropped?: Location;
}

/**
 * Problems of one contract, at most `PER_CODE_LIMIT` of each code; the rest
 * of a code are counted and summarised in one problem of that code. A file
 * with 300,000 empty headings is fixed the same way as one with 100, and
 * keeping every one would cost more than the rest of the parse (1 MiB inputs
 * must stay under 100 ms). Problems past the limit are dropped as they come,
 * so they never outlive the call that made them.
 */
export class CappedProblems implements ProblemSink {
  private readonly kept: Problem[] = [];
  private readonly counts = new Map<ProblemCode, Count>();

  push(p: Problem): void {
    const count = this.count(p.code);
    if (count.listed < PER_CODE_LIMIT) {
      count.listed++;
      count.hint ??= p.hint;
      this.kept.push(p);
    } else {
      count.dropped++;
      count.firstDropped ??= p;
    }
  }

  full(code: ProblemCode, at: Location): boolean {
    const count = this.count(code);
    if (count.listed < PER_CODE_LIMIT) return false;
    count.dropped++;
    count.firstDropped ??= at;
    return true;
  }

  /** The listed problems and one summary per code that went past the limit (unsorted). */
  list(): Problem[] {
    const out = [...this.kept];
    for (const [code, count] of this.counts) {
      if (!count.firstDropped) continue;
      const at = count.firstDropped;
      out.push(
        problem(
          code,
          { path: at.path, line: at.line, column: at.column },
          `${count.dropped} more ${code} problems from here on are not listed (only the first ${PER_CODE_LIMIT} of each kind are)`,
          count.hint === undefined ? {} : { hint: count.hint },
        ),
      );
    }
    return out;
  }

  private count(code: ProblemCode): Count {
    let count = this.counts.get(code);
    if (!count) {
      count = { listed: 0, dropped: 0 };
      this.counts.set(code, count);
    }
    return count;
  }
}
