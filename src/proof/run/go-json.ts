import { posix } from "node:path";
import type { CaseOutcome, ReadResult, ResultCase } from "./results.js";

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
}

/** The package import path of a test file: the module path plus its directory. */
export function goPackageOf(modulePath: string, file: string): string {
  const dir = posix.dirname(file);
  return dir === "." ? modulePath : `${modulePath}/${dir}`;
}

/** The module path `go.mod` declares (`module example.com/x`), or `undefined`. */
export function goModulePath(goMod: string): string | undefined {
  const m = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m.exec(goMod);
  return m?.[2];
}

/**
 * Reads `go test -json` output (test2json): each test's last pass, fail or
 * skip event is its outcome; `TestX/sub` is its full name, as Go names it. A
 * test belongs to every mapped file of its package (a test name is unique
 * in a package). A mapped package with no test events failed to build (Go
 * reports a build failure on stderr, or as a package-level `fail` with no
 * tests): its tests are absent because it did not load.
 */
export function readGoJson(text: string, modulePath: string, files: readonly string[]): ReadResult {
  const byPackage = new Map<string, string[]>();
  for (const f of files) {
    const pkg = goPackageOf(modulePath, f);
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), f]);
  }
  const last = new Map<string, { pkg: string; test: string; outcome: CaseOutcome }>();
  const withTests = new Set<string>();
  let lineNo = 0;
  for (const line of text.split("\n")) {
    lineNo++;
    const t = line.trim();
    // Build output may be interleaved as plain text; only a JSON object is an event.
    if (!t.startsWith("{")) continue;
    let ev: GoEvent;
    try {
      ev = JSON.parse(t) as GoEvent;
    } catch {
      return { ok: false, message: `line ${lineNo} is not a go test -json event` };
    }
    if (typeof ev.Package !== "string" || typeof ev.Test !== "string") continue;
    const outcome =
      ev.Action === "pass"
        ? "passed"
        : ev.Action === "fail"
          ? "failed"
          : ev.Action === "skip"
            ? "skipped"
            : undefined;
    withTests.add(ev.Package);
    if (outcome === undefined) continue;
    last.set(`${ev.Package}\0${ev.Test}`, { pkg: ev.Package, test: ev.Test, outcome });
  }
  const cases: ResultCase[] = [];
  for (const { pkg, test, outcome } of last.values()) {
    const mapped = byPackage.get(pkg);
    cases.push({ ...(mapped && { files: mapped }), name: test, outcome });
  }
  const loadFailed = new Set<string>();
  for (const [pkg, mapped] of byPackage) {
    if (!withTests.has(pkg)) for (const f of mapped) loadFailed.add(f);
  }
  return { ok: true, results: { cases, loadFailed } };
}
