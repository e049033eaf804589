/**
 * The kept lane executor (executor-cache.ts): the host runs it as root, so a
 * program only root could have put there is used, and nothing else is.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cachedExecutor, executorCacheKey, keepExecutor } from "../src/sandbox/executor-cache.js";
import { tempDir } from "./helpers/tmp.js";

const asRoot = process.getuid?.() === 0;
// A trusted parent: root's and writable by no one else (a /tmp directory has /tmp above it).
const base = asRoot ? mkdtempSync("/root/cg-executor-cache-") : "";
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("the kept executor", () => {
  const program = () => {
    const file = join(tempDir("cg-exec-"), "lane-executor");
    writeFileSync(file, "#!/bin/sh\n", { mode: 0o700 });
    return file;
  };

  it("is kept and found again in a root-only directory (the honest twin)", () => {
    const dir = join(base, "ok");
    keepExecutor(program(), "k1", dir);
    expect(cachedExecutor("k1", dir)).toBe(join(dir, "lane-executor-k1"));
    expect(cachedExecutor("k2", dir)).toBeUndefined();
  });

  it("is never taken from a directory or file anyone but root could have written (a planted program)", () => {
    // The control: planted as root in a root-only directory, it is taken.
    const good = join(base, "planted-ok");
    mkdirSync(good, { mode: 0o700 });
    writeFileSync(join(good, "lane-executor-k"), "#!/bin/sh\n", { mode: 0o700 });
    expect(cachedExecutor("k", good)).toBeDefined();

    const owned = join(base, "owned");
    mkdirSync(owned, { mode: 0o700 });
    writeFileSync(join(owned, "lane-executor-k"), "#!/bin/sh\n", { mode: 0o700 });
    chownSync(owned, 65534, 65534);
    expect(cachedExecutor("k", owned)).toBeUndefined();

    const open = join(base, "open");
    mkdirSync(open, { mode: 0o700 });
    chmodSync(open, 0o777);
    writeFileSync(join(open, "lane-executor-k"), "#!/bin/sh\n", { mode: 0o700 });
    expect(cachedExecutor("k", open)).toBeUndefined();

    const file = join(base, "file");
    mkdirSync(file, { mode: 0o700 });
    writeFileSync(join(file, "lane-executor-k"), "#!/bin/sh\n", { mode: 0o777 });
    expect(cachedExecutor("k", file)).toBeUndefined();

    // Below a directory others can write (as /tmp): refused, and nothing is kept there.
    const underTmp = join(tempDir("cg-exec-tmp-"), "cache");
    chmodSync(join(underTmp, ".."), 0o777);
    keepExecutor(program(), "k", underTmp);
    expect(cachedExecutor("k", underTmp)).toBeUndefined();
  });

  it("is named by the source and the compiler", () => {
    const cc = program();
    expect(executorCacheKey("a", cc)).toBe(executorCacheKey("a", cc));
    expect(executorCacheKey("a", cc)).not.toBe(executorCacheKey("b", cc));
  });
});
