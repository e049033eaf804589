import { describe, expect, it } from "vitest";
import { parseContract } from "../src/formats/index.js";
import type { Contract } from "../src/model/contract.js";
import {
  assignShards,
  contractWeight,
  MAX_SHARDS,
  parseShard,
  scopeDigest,
} from "../src/shard/assign.js";

/** An oracle contract with `commands` CHECK criteria and `manual` criteria with no check. */
function contract(path: string, commands: number, manual = 0): Contract {
  const lines = [
    `# CONTRACT — ${path}`,
    "- date: 2026-11-30 | flow: feat | branch: feat/x",
    "- status: active",
    "",
    "## REQUEST (verbatim — IMMUTABLE)",
    "Do it.",
    "",
    "## ACCEPTANCE CRITERIA",
  ];
  let n = 0;
  for (let i = 0; i < commands; i++) {
    n++;
    lines.push(
      `${n}. c${n}`,
      `   CHECK: echo OK-${n}`,
      `   EXPECT: OK-${n}`,
      "   EVIDENCE: pending",
    );
  }
  for (let i = 0; i < manual; i++) {
    n++;
    lines.push(`${n}. m${n}`, "   EVIDENCE: pending");
  }
  lines.push("", "## FILE SCOPE", "src/", "");
  return parseContract("oracle-contract", path, Buffer.from(lines.join("\n")));
}

describe("parseShard", () => {
  it("takes i/n with 1 ≤ i ≤ n ≤ 256", () => {
    expect(parseShard("1/1")).toEqual({ ok: true, shard: { index: 1, total: 1 } });
    expect(parseShard("3/4")).toEqual({ ok: true, shard: { index: 3, total: 4 } });
    expect(parseShard(`${MAX_SHARDS}/${MAX_SHARDS}`)).toMatchObject({ ok: true });
  });
  it.each([
    ["0/4", "is not a shard"],
    ["5/4", "names shard 5 of only 4"],
    ["a/b", "is not a shard"],
    ["1/257", "more than 256"],
    ["01/4", "is not a shard"],
    ["-1/4", "is not a shard"],
    [" 1/4", "is not a shard"],
    ["1/4/2", "is not a shard"],
    ["1", "is not a shard"],
    ["", "is not a shard"],
    ["1e0/4", "is not a shard"],
  ])("refuses %j, naming the allowed form", (raw, why) => {
    const r = parseShard(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toContain(why);
      expect(r.error).toContain("1 ≤ i ≤ n ≤ 256");
    }
  });
});

describe("assignShards", () => {
  it("weighs a command criterion over a check-free one", () => {
    expect(contractWeight(contract("a.md", 1))).toBeGreaterThan(
      contractWeight(contract("b.md", 0, 1)),
    );
    // A refused contract still costs something, so it lands somewhere.
    const broken = parseContract("oracle-contract", "x.md", Buffer.from("# nothing\n"));
    expect(contractWeight(broken)).toBe(1);
  });

  it("is a partition of the scope: every contract in exactly one shard, in scope order", () => {
    const cs = Array.from({ length: 23 }, (_, i) =>
      contract(`c${String(i).padStart(2, "0")}.md`, (i % 5) + 1),
    );
    const shares = assignShards(cs, 4);
    expect(shares).toHaveLength(4);
    const all = shares.flatMap((s) => s.paths);
    expect([...all].sort()).toEqual(cs.map((c) => c.path).sort());
    expect(new Set(all).size).toBe(all.length);
    for (const s of shares) expect(s.paths).toEqual([...s.paths].sort());
    expect(shares.reduce((n, s) => n + s.criteria, 0)).toBe(
      cs.reduce((n, c) => n + c.criteria.length, 0),
    );
  });

  it("balances by weight, largest first into the lightest shard", () => {
    // One heavy contract and four light ones: the heavy one gets a shard to itself.
    const cs = [
      contract("h.md", 9),
      ...Array.from({ length: 4 }, (_, i) => contract(`l${i}.md`, 2)),
    ];
    const shares = assignShards(cs, 2);
    expect(shares.map((s) => s.weight)).toEqual([90, 80]);
    expect(shares[0]!.paths).toEqual(["h.md"]);
  });

  it("is a pure function of the contracts and n: any input order, the same split", () => {
    const cs = Array.from({ length: 40 }, (_, i) => contract(`p/${i}.md`, ((i * 7) % 4) + 1));
    const a = assignShards(cs, 3);
    const b = assignShards([...cs].reverse(), 3);
    expect(b).toEqual(a);
  });

  it("leaves extra shards empty when n exceeds the scope", () => {
    const shares = assignShards([contract("a.md", 1)], 3);
    expect(shares.map((s) => s.paths.length)).toEqual([1, 0, 0]);
  });
});

describe("scopeDigest", () => {
  it("hashes the whole ordered scope", () => {
    expect(scopeDigest(["b", "a"])).toBe(scopeDigest(["a", "b"]));
    expect(scopeDigest(["a", "b"])).not.toBe(scopeDigest(["a"]));
    // No separator trick: two paths never hash like one joined path.
    expect(scopeDigest(["a", "b"])).not.toBe(scopeDigest(["a\nb"]));
    expect(scopeDigest([])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
