import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";

const GOLDEN = join(import.meta.dirname, "../golden");

/**
 * Compare rendered text with a committed golden file. `UPDATE_GOLDEN=1 npm test`
 * rewrites them; review the diff like code, since it is what users will see.
 */
export function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(file)) {
    if (process.env.CI && !existsSync(file)) throw new Error(`golden file ${name} is missing`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}
