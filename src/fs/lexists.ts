import { lstatSync } from "node:fs";

/**
 * Whether anything is at `path`, the path itself and not what it links to:
 * a dangling link exists, as `test -L` sees it (`existsSync` follows links).
 */
export function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
