import { type Dirent, readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { GlobOptions } from "tinyglobby";

/**
 * A directory's entries, each directory read once per run. Discovery's walk
 * for symlinks and the audit's walk for contract-like files cover the same
 * tree one after the other; reading it twice was most of `validate`'s time
 * on a repository of many specs.
 */
export interface DirListing {
  /** The entries of an absolute directory (as `readdir` lists them); none when it cannot be listed. */
  entries(abs: string): Dirent[];
  /** The same reads as `tinyglobby`'s file system (its `globSync` lists with `readdirSync` alone). */
  readonly globFs: NonNullable<GlobOptions["fs"]>;
}

export function dirListing(): DirListing {
  const seen = new Map<string, Dirent[]>();
  const listing: DirListing = {
    entries(abs) {
      const key = resolve(abs);
      let found = seen.get(key);
      if (found === undefined) {
        try {
          found = readdirSync(key, { withFileTypes: true });
        } catch {
          found = []; // not a directory, or unreadable: nothing to list
        }
        seen.set(key, found);
      }
      return found;
    },
    // fdir asks for Dirents; an unreadable directory lists nothing, as fdir's suppressed error does.
    globFs: {
      readdirSync: ((path: string) => listing.entries(path)) as unknown as NonNullable<
        GlobOptions["fs"]
      >["readdirSync"],
    },
  };
  return listing;
}
