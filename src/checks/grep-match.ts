import pLimit from "p-limit";
import type { Check } from "../model/contract.js";
import type { RepoFile } from "./files/glob.js";
import { resultsFrom } from "./files/results.js";
import type { CheckResult, ExecutionContext, Executor, FileService, GrepHit } from "./types.js";

type GrepMatchCheck = Extract<Check, { type: "grep-match" }>;

/** Offending places listed in a failed `absent` check's detail. */
export const MAX_LISTED_HITS = 10;

/** How the file worker reports an entry that is no longer a regular file (it opens with O_NOFOLLOW). */
const LEFT_THE_TREE = /^(ENOENT|ELOOP)\b|^not a regular file$/;

/**
 * `grep-match`: whether some line of the files `path` names (a file, or a
 * glob over the run's tree: the head commit's paths where the gate judges a
 * commit, else the working tree's) matches `pattern`.
 *
 * Fail-closed where it matters: `absent` passes only when at least one file
 * was searched in full — absence over no files, or over files that could not
 * be read, proves nothing and is an execution error. `present` stops at the
 * first matching line.
 */
export const runGrepMatch: Executor<GrepMatchCheck> = (check, ctx) =>
  inTurn(ctx.files, () => grepMatch(check, ctx));

/**
 * Checks of one run (one file service) listing or searching at once. The
 * service searches one request at a time anyway; a few in flight keep it
 * busy while the next file lists are built, and a bound keeps a few
 * hundred checks over a large tree from all holding their file lists in
 * memory together.
 */
const IN_FLIGHT = 3;
const turns = new WeakMap<FileService, <T>(fn: () => Promise<T>) => Promise<T>>();

function inTurn<T>(files: FileService, fn: () => Promise<T>): Promise<T> {
  let limit = turns.get(files);
  if (limit === undefined) {
    limit = pLimit(IN_FLIGHT);
    turns.set(files, limit);
  }
  return limit(fn);
}

async function grepMatch(check: GrepMatchCheck, ctx: ExecutionContext): Promise<CheckResult> {
  const results = resultsFrom();
  const listed = await ctx.tree.list(check.path);
  if (!listed.ok) return results.executionError(listed.error);
  const files = listed.files;
  const present = check.expect === "present";
  const noFiles = () => {
    const none = `no file matched ${check.path}`;
    return present
      ? results.unmet(none, listed.note)
      : results.executionError(
          `${none} — an absence check over no files proves nothing`,
          listed.note,
        );
  };
  if (files.length === 0) return noFiles();

  // One more than we list, to know whether there are more.
  const limit = present ? 1 : MAX_LISTED_HITS + 1;
  const grep = await ctx.files.grep(
    files.map((f) => f.abs),
    check.pattern,
    limit,
  );
  if (!grep.ok) return results.executionError(grep.error);
  const { hits } = grep.value;
  // A glob entry deleted since the listing, or replaced by a symlink (never
  // followed) or by something other than a file, is not part of the tree.
  const gone = listed.glob ? grep.value.unreadable.filter((u) => LEFT_THE_TREE.test(u.error)) : [];
  const unreadable = grep.value.unreadable.filter((u) => !gone.includes(u));
  const count = files.length - gone.length;
  if (count === 0) return noFiles();
  const place = placeNamer(files);
  const where = listed.glob ? `${count} ${plural(count, "file")}` : files[0]!.rel;
  const unreadableDetail = () =>
    unreadable.map((u) => `${place({ file: u.file })}: ${u.error}`).join("\n");

  if (present) {
    if (hits.length > 0) return results.pass(`found at ${place(hits[0]!)}`);
    if (unreadable.length > 0) {
      return results.executionError(
        `pattern not found, but ${unreadable.length} of ${count} files could not be read`,
        unreadableDetail(),
      );
    }
    return results.unmet(`pattern not found in ${where}`);
  }

  if (hits.length > 0) {
    const count =
      hits.length > MAX_LISTED_HITS
        ? `more than ${MAX_LISTED_HITS} places`
        : `${hits.length} ${plural(hits.length, "place")}`;
    const listedHits = hits.slice(0, MAX_LISTED_HITS).map(place);
    return results.unmet(
      `pattern found in ${count}, first ${listedHits[0]}`,
      listedHits.join("\n"),
    );
  }
  if (unreadable.length > 0) {
    return results.executionError(
      `${unreadable.length} of ${count} files could not be read, so absence is unproven`,
      unreadableDetail(),
    );
  }
  return results.pass(`pattern absent from ${where}`);
}

/** `src/a.ts:12` for a hit on an absolute path the service was given. */
function placeNamer(files: readonly RepoFile[]) {
  // Built on first use: most checks name no place, or only the first file.
  let relOf: Map<string, string> | undefined;
  return (hit: Pick<GrepHit, "file"> & { line?: number }): string => {
    relOf ??= new Map(files.map((f) => [f.abs, f.rel]));
    const rel = relOf.get(hit.file) ?? hit.file;
    return hit.line === undefined ? rel : `${rel}:${hit.line}`;
  };
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
