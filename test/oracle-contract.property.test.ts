import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseOracleContract } from "../src/formats/oracle-contract/index.js";
import type { Contract, Marker } from "../src/model/contract.js";
import { isInvalid } from "../src/model/contract.js";
import { PROBLEM_CODES } from "../src/model/problem-codes.js";
import { sortProblems } from "../src/model/problems.js";

const RUNS = 200;
/** Generous: a parse of these small inputs takes well under a millisecond. */
const QUICK_MS = 250;

// ── generated contracts ───────────────────────────────────────────────────

interface GenOracle {
  command: string;
  marker: Marker;
  cwd?: string;
  evidence: string;
  /** How each value is written: bare, or wrapped in one pair of backticks. */
  wrapCommand: boolean;
  wrapMarker: boolean;
  indent: string;
  /** Attribute order under the criterion. */
  order: ("CHECK" | "EXPECT" | "EVIDENCE" | "CWD")[];
}

interface GenCriterion {
  id: string;
  title: string;
  style: "numbered" | "checkbox";
  bullet: string;
  box: " " | "x" | "X";
  oracle?: GenOracle;
  prose: string[];
  /** A fenced block after the criterion, full of lines that would be live outside it. */
  fence?: { open: string; body: string[] };
}

interface GenContract {
  slug: string;
  date: string;
  flow: string;
  request: string[];
  quoteInRequest: boolean;
  criteria: GenCriterion[];
  abandons: { id: string; reason: string }[];
}

/** One trimmed, non-empty line of arbitrary printable text. */
const text = (maxLength = 24) =>
  fc
    .oneof(
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength }),
      fc.string({ unit: "grapheme", minLength: 1, maxLength }),
    )
    .map((s) => s.trim())
    .filter((s) => s !== "" && !["\r", "\n", "\0"].some((c) => s.includes(c)));

// Test-local statements of the grammar, so expectations do not reuse the parser.
const wholeCodeSpan = (s: string) =>
  s.length >= 2 && s.startsWith("`") && s.endsWith("`") && !s.slice(1, -1).includes("`");
const regexShaped = (s: string) => /^\/.*\/[dgimsuvy]*$/s.test(s);
const compiles = (source: string, flags: string) => {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
};

/**
 * A value and how to write it: in backticks when asked and possible (no
 * backtick inside), else bare. A value that is itself one whole code span
 * cannot be written bare (it would be unwrapped), so it is not generated.
 */
const writable = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(
      value.filter((v) => !wholeCodeSpan(v)),
      fc.boolean(),
    )
    .map(([v, wrap]) => ({ v, wrap: wrap && !v.includes("`") }));

const literalMarker = text().filter((s) => !regexShaped(s));
const regexMarker = fc
  .tuple(
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 }),
    fc.subarray(["d", "g", "i", "m", "s", "u", "y"]),
  )
  .map(([source, flags]) => ({ source, flags: flags.join("") }))
  .filter(({ source, flags }) => !/[\r\n]/.test(source) && compiles(source, flags))
  // A regex that matches "" matches any output: refused like an empty marker.
  .filter(({ source, flags }) => !new RegExp(source, flags).test(""));

const marker: fc.Arbitrary<{ marker: Marker; written: string }> = fc.oneof(
  literalMarker.map((t) => ({ marker: { kind: "literal", text: t } as Marker, written: t })),
  regexMarker.map((r) => ({
    marker: { kind: "regex", ...r } as Marker,
    written: `/${r.source}/${r.flags}`,
  })),
);

const segment = fc.stringMatching(/^[a-z0-9_][a-z0-9_.-]{0,7}$/).filter((s) => s !== "..");
const cwd = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));

const oracle: fc.Arbitrary<GenOracle> = fc
  .record({
    command: writable(text(40)),
    marker: fc
      .tuple(
        marker.filter((m) => !wholeCodeSpan(m.written)),
        fc.boolean(),
      )
      .map(([m, wrap]) => ({ ...m, wrap: wrap && !m.written.includes("`") })),
    cwd: fc.option(cwd, { nil: undefined }),
    evidence: fc.oneof(fc.constant("pending"), fc.constant(""), text()),
    indent: fc.constantFrom("   ", " ", "\t", "   - ", "  * ", "    "),
    order: fc.shuffledSubarray(["CHECK", "EXPECT", "EVIDENCE", "CWD"] as const, {
      minLength: 4,
      maxLength: 4,
    }),
  })
  .map((r) => {
    const o: GenOracle = {
      command: r.command.v,
      wrapCommand: r.command.wrap,
      marker: r.marker.marker,
      wrapMarker: r.marker.wrap,
      evidence: r.evidence,
      indent: r.indent,
      order: [...r.order],
    };
    if (r.cwd !== undefined) o.cwd = r.cwd;
    return o;
  });

/** Indented prose under a criterion: anything but an attribute or a fence. */
/** No HTML comment or definition: those are the rendered reading's own tests. */
const plain = (s: string) => !s.includes("<!--") && !/^\[[^\]]*\]:/.test(s);

/** Prose that reads as nothing else, not even a near-miss keyword (those are errors). */
const prose = text().filter(
  (s) =>
    !/^(?:[-*+][ \t]+)?(?:CHECK|EXPECT|EVIDENCE|CWD|ABANDON)[ \t]*[:\uff1a]/i.test(
      s.normalize("NFKC"),
    ) &&
    !/^[`~]/.test(s) &&
    plain(s),
);

const LIVE_LINES = [
  "1. a fenced criterion",
  "- [ ] FENCED-1: a fenced checkbox",
  "   CHECK: rm -rf /",
  "CHECK: unindented",
  "   EXPECT: //",
  "ABANDON: 1",
  "## FILE SCOPE",
  "## ACCEPTANCE CRITERIA",
  "```",
  "~~~",
  "```` x",
];

function closesFence(line: string, open: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1]![0] === open.trim()[0] && m[1]!.length >= open.trim().length;
}

const fence = fc
  .record({
    open: fc.constantFrom("```", "~~~", "````", "~~~~~", "  ```sh", "```markdown"),
    body: fc.array(fc.constantFrom(...LIVE_LINES), { maxLength: 5 }),
  })
  .map(({ open, body }) => {
    const marker = open.trim().match(/^[`~]+/)![0];
    return { open, body: body.filter((l) => !closesFence(l, marker)) };
  });

const numberedId = fc.nat({ max: 999 }).map(String);
const checkboxId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,8}$/);

const criterion: fc.Arbitrary<GenCriterion> = fc
  .record({
    style: fc.constantFrom("numbered", "checkbox") as fc.Arbitrary<"numbered" | "checkbox">,
    numberedId,
    checkboxId,
    title: fc.option(text(40).filter(plain), { nil: "" }),
    bullet: fc.constantFrom("-", "*", "+"),
    box: fc.constantFrom(" ", "x", "X") as fc.Arbitrary<" " | "x" | "X">,
    oracle: fc.option(oracle, { nil: undefined }),
    prose: fc.array(prose, { maxLength: 2 }),
    fence: fc.option(fence, { nil: undefined }),
  })
  .map((r) => {
    const c: GenCriterion = {
      id: r.style === "numbered" ? r.numberedId : r.checkboxId,
      title: r.title,
      style: r.style,
      bullet: r.bullet,
      box: r.box,
      prose: r.prose,
    };
    if (r.oracle) c.oracle = r.oracle;
    if (r.fence) c.fence = r.fence;
    return c;
  });

const contract: fc.Arbitrary<GenContract> = fc
  .record({
    slug: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
    date: fc.stringMatching(/^20[0-9]{2}-[01][0-9]-[0-3][0-9]$/),
    flow: fc.constantFrom("ship-feature", "feat", "bugfix", "hotfix", "init-project", "onboard"),
    request: fc.array(
      text(60).filter((s) => !/^(#|[`~]{3})/.test(s) && plain(s)),
      { minLength: 1, maxLength: 3 },
    ),
    quoteInRequest: fc.boolean(),
    criteria: fc.uniqueArray(criterion, { minLength: 1, maxLength: 6, selector: (c) => c.id }),
    reasons: fc.array(text(40), { maxLength: 6 }),
  })
  .chain((r) =>
    fc.subarray(r.criteria.map((c) => c.id)).map((abandoned) => ({
      slug: r.slug,
      date: r.date,
      flow: r.flow,
      request: r.request,
      quoteInRequest: r.quoteInRequest,
      criteria: r.criteria,
      abandons: abandoned
        .slice(0, r.reasons.length)
        .map((id, k) => ({ id, reason: r.reasons[k]! })),
    })),
  );

type Role =
  | { kind: "other" }
  | { kind: "criterion"; index: number }
  | { kind: "attribute"; index: number; name: string };

interface Rendered {
  lines: string[];
  roles: Role[];
}

function render(c: GenContract): Rendered {
  const lines: string[] = [];
  const roles: Role[] = [];
  const push = (line: string, role: Role = { kind: "other" }) => {
    lines.push(line);
    roles.push(role);
  };
  push(`# CONTRACT — ${c.slug}`);
  push(`- date: ${c.date} | flow: ${c.flow} | branch: feat/${c.slug}`);
  push("- status: active");
  push("");
  push("## REQUEST (verbatim — IMMUTABLE)");
  for (const line of c.request) push(line);
  if (c.quoteInRequest) {
    for (const line of ["```markdown", "## ACCEPTANCE CRITERIA", "1. quoted", "```"]) push(line);
  }
  push("");
  push("## CLARIFICATIONS");
  push("(or: none — request complete)");
  push("");
  push("## ACCEPTANCE CRITERIA");
  c.criteria.forEach((k, index) => {
    const head =
      k.style === "numbered" ? `${k.id}. ${k.title}` : `${k.bullet} [${k.box}] ${k.id}: ${k.title}`;
    push(head, { kind: "criterion", index });
    for (const p of k.prose) push(`   ${p}`);
    const o = k.oracle;
    if (o) {
      const wrap = (v: string, w: boolean) => (w ? `\`${v}\`` : v);
      const markerText =
        o.marker.kind === "literal" ? o.marker.text : `/${o.marker.source}/${o.marker.flags}`;
      const values: Record<string, string | undefined> = {
        CHECK: wrap(o.command, o.wrapCommand),
        EXPECT: wrap(markerText, o.wrapMarker),
        EVIDENCE: o.evidence,
        CWD: o.cwd,
      };
      for (const name of o.order) {
        const value = values[name];
        if (value === undefined) continue;
        push(`${o.indent}${name}: ${value}`, { kind: "attribute", index, name });
      }
    }
    if (k.fence) {
      push(k.fence.open);
      for (const line of k.fence.body) push(line);
      push(k.fence.open.trim().match(/^[`~]+/)![0]);
    }
  });
  push("");
  push("(ABANDON: <n> <non-blank reason> — only for a criterion proven impossible)");
  for (const a of c.abandons) push(`ABANDON: ${a.id} ${a.reason}`);
  push("");
  push("## FILE SCOPE");
  push("src/");
  push("");
  return { lines, roles };
}

const bytesOf = (lines: readonly string[], eol = "\n") => new TextEncoder().encode(lines.join(eol));

/** The model a generated contract must parse into. */
function expected(c: GenContract) {
  const abandons = new Map(c.abandons.map((a) => [a.id, a.reason]));
  return c.criteria.map((k) => ({
    id: k.id,
    title: k.title,
    ticked: k.style === "checkbox" ? k.box !== " " : undefined,
    oracle: k.oracle && {
      command: k.oracle.command,
      expect: k.oracle.marker,
      cwd: k.oracle.cwd,
      evidence: k.oracle.evidence,
    },
    abandon: abandons.get(k.id),
  }));
}

function actual(parsed: Contract) {
  return parsed.criteria.map((k) => {
    const check = k.checks[0];
    return {
      id: k.id,
      title: k.title,
      ticked: k.ticked,
      oracle:
        check?.type === "oracle"
          ? {
              command: check.command,
              expect: check.expect,
              cwd: check.cwd,
              evidence: check.evidence?.text,
            }
          : undefined,
      abandon: k.abandon?.reason,
    };
  });
}

/** Properties every parse must keep, whatever the input. */
function assertWellFormed(parsed: Contract, lineCount: number): void {
  expect(parsed.problems).toEqual(sortProblems(parsed.problems));
  for (const p of parsed.problems) {
    expect(PROBLEM_CODES[p.code]).toBeDefined();
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(Math.max(lineCount, 1));
    expect(p.column).toBeGreaterThanOrEqual(1);
  }
  const ids = parsed.criteria.map((k) => k.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const k of parsed.criteria) expect(k.checks.length).toBeLessThanOrEqual(1);
  if (!isInvalid(parsed)) {
    // A valid contract never carries a check that could pass on nothing.
    expect(parsed.criteria.length).toBeGreaterThan(0);
    for (const k of parsed.criteria) {
      for (const check of k.checks) {
        if (check.type !== "oracle") continue;
        expect(check.command.trim()).not.toBe("");
        expect(check.evidence).toBeDefined();
        const m = check.expect;
        // An oracle contract's check always has its marker (only a spec's Verification command has none).
        if (m === undefined) throw new Error("an oracle without a marker");
        expect(m.kind === "literal" ? m.text.trim() : m.source).not.toBe("");
      }
    }
  }
}

function timed<T>(f: () => T): T {
  const start = performance.now();
  const out = f();
  expect(performance.now() - start).toBeLessThan(QUICK_MS);
  return out;
}

// ── properties ────────────────────────────────────────────────────────────

describe("generated valid contracts round-trip", () => {
  it("render → parse gives no problems and the same model", () => {
    fc.assert(
      fc.property(contract, (c) => {
        const { lines } = render(c);
        const parsed = parseOracleContract("c.md", bytesOf(lines));
        expect(parsed.problems).toEqual([]);
        expect(actual(parsed)).toEqual(expected(c));
        expect(parsed.header).toMatchObject({ title: c.slug, date: c.date, flow: c.flow });
      }),
      { numRuns: RUNS },
    );
  });

  it("CRLF and BOM renderings parse identically to LF, line numbers included", () => {
    fc.assert(
      fc.property(contract, (c) => {
        const { lines } = render(c);
        const lf = parseOracleContract("c.md", bytesOf(lines));
        expect(parseOracleContract("c.md", bytesOf(lines, "\r\n"))).toEqual(lf);
        const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf(lines)]);
        expect(parseOracleContract("c.md", bom)).toEqual(lf);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fail-closed under targeted mutations", () => {
  /** A generated contract and the index of one of its lines with the wanted role. */
  const withLine = (pick: (r: Role) => boolean) =>
    contract
      .map((c) => ({ c, r: render(c) }))
      .filter(({ r }) => r.roles.some(pick))
      .chain(({ c, r }) => {
        const candidates = r.roles.flatMap((role, i) => (pick(role) ? [i] : []));
        return fc.constantFrom(...candidates).map((i) => ({ c, r, i }));
      });

  it("dedenting any attribute line is an unindented-attribute at that line", () => {
    fc.assert(
      fc.property(
        withLine((r) => r.kind === "attribute"),
        ({ r, i }) => {
          const lines = [...r.lines];
          lines[i] = lines[i]!.replace(/^[ \t]+/, "");
          const parsed = parseOracleContract("c.md", bytesOf(lines));
          expect(parsed.problems.map((p) => [p.code, p.line])).toContainEqual([
            "unindented-attribute",
            i + 1,
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("deleting a CHECK or EXPECT line is a partial oracle; deleting EVIDENCE is missing evidence", () => {
    fc.assert(
      fc.property(
        withLine((r) => r.kind === "attribute" && r.name !== "CWD"),
        ({ c, r, i }) => {
          const role = r.roles[i] as Extract<Role, { kind: "attribute" }>;
          const lines = r.lines.filter((_, k) => k !== i);
          const parsed = parseOracleContract("c.md", bytesOf(lines));
          const codes = parsed.problems.map((p) => p.code);
          expect(codes).toContain(role.name === "EVIDENCE" ? "missing-evidence" : "partial-oracle");
          // The runnable criterion never silently becomes manual-and-valid.
          expect(isInvalid(parsed)).toBe(true);
          expect(parsed.criteria[role.index]!.id).toBe(c.criteria[role.index]!.id);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("duplicating a criterion line is a duplicate-criterion-id at the copy", () => {
    fc.assert(
      fc.property(
        withLine((r) => r.kind === "criterion"),
        ({ r, i }) => {
          const lines = [...r.lines.slice(0, i + 1), r.lines[i]!, ...r.lines.slice(i + 1)];
          const parsed = parseOracleContract("c.md", bytesOf(lines));
          expect(parsed.problems.map((p) => [p.code, p.line])).toContainEqual([
            "duplicate-criterion-id",
            i + 2,
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("a fence opened and never closed is reported, never silently swallowing criteria", () => {
    fc.assert(
      fc.property(
        withLine((r) => r.kind === "criterion"),
        fc.constantFrom("```", "~~~", "````sh", "   ~~~~"),
        ({ r, i }, open) => {
          // Every later fence-like line is defused (prefixed with `x`), so
          // nothing can close the inserted opener.
          const lines = [...r.lines.slice(0, i), open, ...r.lines.slice(i)].map((l, k) =>
            k > i && /^ {0,3}[`~]{3,}/.test(l) ? `x${l}` : l,
          );
          const parsed = parseOracleContract("c.md", bytesOf(lines));
          expect(parsed.problems.map((p) => [p.code, p.line])).toContainEqual([
            "unclosed-fence",
            i + 1,
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("robustness: never throws, finishes quickly", () => {
  const TRICKY = [
    "```",
    "````",
    "~~~",
    "   ```js",
    "``` a`b",
    "## ACCEPTANCE CRITERIA",
    "## FILE SCOPE",
    "### sub",
    "#",
    "1.",
    "1. x",
    "01. y",
    "- [ ] A: b",
    "- [x] A:",
    "- note",
    "CHECK:",
    "CHECK: x",
    "   CHECK: `x`",
    "   EXPECT: /(/",
    "   EXPECT: //",
    "   EXPECT: ``",
    "   EVIDENCE:",
    "   CWD: ../x",
    "ABANDON:",
    "ABANDON: 1",
    "ABANDON: 1 why",
    "- date: x | flow: y",
    "",
    "\t",
    "<!--",
    "-->",
    "x <!-- y",
    "1. a <!-- b --> c",
    "   CHECK: a <!-- b",
    "[//]: # (",
    "[//]: # (- status: aborted)",
    "[x]: #",
    ")",
    "   check: x",
    "   ABANDON: 1 x",
    "- ABANDON: 1 x",
    "4b. x",
    "##",
    "- status: aborted",
    "   C\u200bHECK: x",
  ];

  type Mutation =
    | { op: "delete" | "duplicate" | "dedent"; at: number }
    | { op: "insert"; at: number; line: string };

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({
      op: fc.constantFrom("delete", "duplicate", "dedent"),
      at: fc.nat(),
    }) as fc.Arbitrary<Mutation>,
    fc.record({
      op: fc.constant("insert"),
      at: fc.nat(),
      line: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 20 })),
    }) as fc.Arbitrary<Mutation>,
  );

  function mutate(lines: string[], m: Mutation): string[] {
    if (m.op === "insert") {
      const out = [...lines];
      out.splice(lines.length === 0 ? 0 : m.at % (lines.length + 1), 0, m.line);
      return out;
    }
    if (lines.length === 0) return lines;
    const at = m.at % lines.length;
    const out = [...lines];
    if (m.op === "delete") out.splice(at, 1);
    else if (m.op === "duplicate") out.splice(at, 0, lines[at]!);
    else out[at] = lines[at]!.replace(/^[ \t]+/, "");
    return out;
  }

  it("random line-level mutations of valid contracts", () => {
    fc.assert(
      fc.property(
        contract,
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (c, mutations, crlf) => {
          const lines = mutations.reduce(mutate, render(c).lines);
          const parsed = timed(() =>
            parseOracleContract("c.md", bytesOf(lines, crlf ? "\r\n" : "\n")),
          );
          assertWellFormed(parsed, lines.length);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random markdown-ish documents", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "binary", maxLength: 30 })),
          {
            maxLength: 60,
          },
        ),
        (lines) => {
          const parsed = timed(() => parseOracleContract("c.md", bytesOf(lines)));
          if (!parsed.problems.some((p) => ["nul-byte", "invalid-utf8"].includes(p.code))) {
            assertWellFormed(parsed, lines.join("\n").split(/\r\n|\r|\n/).length);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        const parsed = timed(() => parseOracleContract("c.md", bytes));
        expect(parsed.kind).toBe("oracle-contract");
        expect(parsed.problems).toEqual(sortProblems(parsed.problems));
      }),
      { numRuns: RUNS },
    );
  });

  // Linearity is asserted as a work count in test/plan-contract.linear.test.ts, never a time:
  // a wall-clock bound here failed under load (the brief: no timed assertions).
  it("large adversarial inputs end with their problems in order", () => {
    const MiB = 1024 * 1024 - 64;
    const inputs = [
      " ".repeat(MiB),
      "`".repeat(MiB),
      `## ACCEPTANCE CRITERIA\n1. a\n${"   ".repeat(Math.floor(MiB / 3) - 10)}CHECK`,
      `## ACCEPTANCE CRITERIA\n${"1. x\n   CHECK: y\n".repeat(MiB / 20)}`,
      `## ACCEPTANCE CRITERIA\n${"```\n~~~\n".repeat(MiB / 9)}`,
      `## ACCEPTANCE CRITERIA\n1. a\n   CHECK: x\n   EXPECT: /${"(".repeat(MiB / 4)}/`,
      `## ACCEPTANCE CRITERIA\n1. a\n   CHECK: x\n   EXPECT: /${"a?".repeat(MiB / 4)}/\n`,
    ];
    for (const input of inputs) {
      const parsed = parseOracleContract("big.md", new TextEncoder().encode(input));
      expect(parsed.problems).toEqual(sortProblems(parsed.problems));
    }
  });
});

describe("1 MiB adversarial inputs end, with problems, without a throw", () => {
  const MiB = 1024 * 1024;
  // Runs the issue names, plus the closers and look-alikes the rendered reading scans for.
  const UNITS = [" ", "\t", "#", "`", "<!--", "[", "7", "-->", "~", "(", "\u200b", "\u0421"];
  const HEAD = "# CONTRACT — big\n- status: active\n\n## ACCEPTANCE CRITERIA\n1. a\n";

  /** `unit` repeated to just under 1 MiB of UTF-8: on one line, or one per line. */
  function build(unit: string, perLine: boolean, head: boolean): Uint8Array {
    const prefix = head ? HEAD : "";
    const piece = perLine ? `${unit}\n` : unit;
    const count = Math.floor((MiB - prefix.length - 16) / Buffer.byteLength(piece));
    return new TextEncoder().encode(`${prefix}${piece.repeat(count)}`);
  }

  function check(bytes: Uint8Array, head: boolean): void {
    expect(bytes.length).toBeLessThanOrEqual(MiB);
    const parsed = parseOracleContract("big.md", bytes);
    const lines = new TextDecoder().decode(bytes).split("\n").length;
    assertWellFormed(parsed, lines);
    // Without a criterion in front, every shape is at least a contract with no criteria.
    if (!head) expect(parsed.problems.length).toBeGreaterThan(0);
  }

  for (const unit of UNITS) {
    it(`runs of ${JSON.stringify(unit)}, on one line and one per line`, () => {
      for (const perLine of [false, true]) {
        for (const head of [false, true]) check(build(unit, perLine, head), head);
      }
    });
  }

  it("mixtures of the runs", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...UNITS, "\n", "1. x\n", "   CHECK: y\n", "## z\n"), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.boolean(),
        (units, head) => {
          check(build(units.join(""), false, head), head);
        },
      ),
      { numRuns: 8 },
    );
  });
});
