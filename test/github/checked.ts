import { afterEach, expect } from "vitest";
import type { StandIn } from "./standin.js";

/**
 * Stand-ins a test file starts, checked after each test: only valid requests
 * (no violations), answers matching the schema, then closed.
 */
export function standInsCheckedAfterEach(): StandIn[] {
  const open: StandIn[] = [];
  afterEach(async () => {
    for (const gh of open.splice(0)) {
      expect(gh.violations).toEqual([]);
      expect(gh.responseProblems).toEqual([]);
      await gh.close();
    }
  });
  return open;
}
