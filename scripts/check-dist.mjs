// Exit 0 when dist/ is exactly what `npm run bundle` builds from src/, 1 otherwise.
// Used by this repository's own phase contract (.planning/phase-1-contract.json).
import { execFileSync } from "node:child_process";

execFileSync("npm", ["run", "--silent", "bundle"], { stdio: "inherit" });
try {
  execFileSync("git", ["diff", "--exit-code", "--stat", "--", "dist/"], { stdio: "inherit" });
  console.log("dist is current");
} catch {
  console.log("dist/ is stale: run `npm run bundle` and commit dist/");
  process.exit(1);
}
