import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import type { Git } from "../git/index.js";
import type { BaseSide } from "../load/index.js";

/**
 * The merge base as the loader reads it: one git read per file asked for
 * (a spec's tasks.md), each read once. A file git cannot read there is no
 * file at the base: every task done at head is then the change's.
 */
export function baseSide(git: Git, commit: string, history = false): BaseSide {
  const reads = new Map<string, Promise<Uint8Array | undefined>>();
  const read = (path: string) => {
    let found = reads.get(path);
    if (found === undefined) {
      found = git
        .readAt(commit, [{ path, limit: MAX_CONTRACT_BYTES }])
        .then((m) => {
          const r = m.get(path);
          return r?.kind === "file" && r.size <= MAX_CONTRACT_BYTES ? r.bytes : undefined;
        })
        .catch(() => undefined);
      reads.set(path, found);
    }
    return found;
  };
  return { read, history };
}
