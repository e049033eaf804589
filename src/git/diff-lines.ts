/**
 * `git diff --unified=0` output → for each file of the new side, the lines
 * (1-based) the diff adds or changes, pure. Only the hunk headers are read
 * (`@@ -a,b +c,d @@`: lines c … c+d-1 of the new side; d absent means 1, 0
 * means a pure deletion), so a hunk's own text, whatever it holds, can never
 * be taken for a header. A deleted file (`+++ /dev/null`) has no entry.
 */
export function parseChangedLines(out: string): Map<string, Set<number>> {
  const files = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  let inHunk = false;
  for (const line of out.split("\n")) {
    if (line.startsWith("diff --git ")) {
      current = undefined;
      inHunk = false;
      continue;
    }
    if (!inHunk && line.startsWith("+++ ")) {
      // A name holding a space ends in a tab (for patch(1)): not part of it.
      const name = line.slice(4).replace(/\t$/, "");
      if (name === "/dev/null") continue;
      const path = stripPrefix(unquote(name));
      current = files.get(path) ?? new Set();
      files.set(path, current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && current !== undefined) {
      inHunk = true;
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      for (let k = 0; k < count; k++) current.add(start + k);
    }
  }
  return files;
}

/** The `b/` prefix the command asks for (`--dst-prefix=b/`), whatever the repository configures. */
function stripPrefix(name: string): string {
  return name.startsWith("b/") ? name.slice(2) : name;
}

/**
 * A path git printed in C quotes (`"a\tb"`, `"caf\303\251"`): its bytes,
 * decoded as UTF-8. Unquoted names are as they are.
 */
export function unquote(name: string): string {
  if (!(name.startsWith('"') && name.endsWith('"') && name.length >= 2)) return name;
  const body = name.slice(1, -1);
  const bytes: number[] = [];
  const ESC: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const next = body[++i] ?? "";
    if (/[0-7]/.test(next)) {
      const oct = body.slice(i, i + 3);
      bytes.push(Number.parseInt(oct, 8));
      i += 2;
    } else bytes.push(ESC[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString("utf8");
}
