import { posix } from "node:path";

/** One simple command of a shell line: its words (quotes removed) and the directory it runs in. */
export interface SimpleCommand {
  words: string[];
  /** Repo-relative, "" for the root; `cd` earlier in the line moves it. */
  cwd: string;
  /** Set when the line does something the gate cannot follow statically (`eval`, `$(…)` as a command). */
  opaque?: string;
}

/**
 * The simple commands of a shell line, statically: split on `;`, `&&`, `||`,
 * `|`, `&` and newlines outside quotes; leading `VAR=value` assignments and
 * wrappers (`env`, `time`, `exec`, `command`, `nice`, `!`) dropped; `cd dir`
 * moves the directory of the commands after it. Subshell parentheses and
 * braces are dropped (their commands run all the same). No expansion is
 * done: a word with `$` stays as written. Pure.
 */
export function simpleCommands(line: string, cwd = ""): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let dir = cwd;
  for (const words of splitLine(line)) {
    const w = [...words];
    let cmdDir = dir; // `env -C sub cmd` runs cmd in sub, the line's later commands where they were
    let unknownDir: string | undefined;
    while (
      w.length > 0 &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0] as string) || WRAPPERS.has(w[0] as string))
    ) {
      const first = w.shift() as string;
      if (WRAPPERS.has(first)) {
        const chdir = dropWrapperOptions(first, w);
        if (chdir !== undefined && (chdir.includes("$") || chdir.startsWith("~")))
          unknownDir = chdir;
        else if (chdir !== undefined) cmdDir = join(cmdDir, chdir);
      }
    }
    if (w.length === 0) continue;
    if (unknownDir !== undefined) {
      out.push({
        words: w,
        cwd: dir,
        opaque: `\`env -C ${unknownDir}\` moves to a directory the gate cannot know`,
      });
      continue;
    }
    const [head] = w as [string];
    if (head === "cd") {
      const to = w[1];
      if (to === undefined || to.includes("$") || to === "-" || to.startsWith("~")) {
        out.push({
          words: w,
          cwd: cmdDir,
          opaque: `\`cd ${to ?? ""}\` moves to a directory the gate cannot know`,
        });
      } else dir = join(dir, to);
      continue;
    }
    if (head === "eval" || head === "source" || head === ".") {
      if (head !== "eval" && w[1] !== undefined && !w[1].includes("$")) {
        out.push({ words: ["sh", w[1]], cwd: cmdDir }); // a sourced file runs like a script
        continue;
      }
      out.push({
        words: w,
        cwd: cmdDir,
        opaque: `\`${head}\` runs text the gate cannot read statically`,
      });
      continue;
    }
    if (head.startsWith("$")) {
      out.push({ words: w, cwd: cmdDir, opaque: `\`${head}\` is a command chosen at run time` });
      continue;
    }
    out.push({ words: w, cwd: cmdDir });
  }
  return out;
}

/** A wrapper's options that take the next word as their value (`nice -n 5`, `timeout -s KILL`, `env -u NAME`). */
const VALUED_OPTIONS: Record<string, ReadonlySet<string>> = {
  nice: new Set(["-n", "--adjustment"]),
  timeout: new Set(["-s", "--signal", "-k", "--kill-after"]),
  env: new Set(["-u", "--unset", "-C", "--chdir"]),
  ionice: new Set(["-c", "-n", "-p"]),
  xargs: new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--arg-file"]),
};

/**
 * Removes a wrapper's own words in place, leaving the command it runs:
 * its options, and `timeout`'s duration (`timeout -k 5 60 npm test` runs
 * `npm test`; the duration read as a command was a warning where the
 * script it runs should have been compared).
 */
function dropWrapperOptions(wrapper: string, w: string[]): string | undefined {
  const valued = VALUED_OPTIONS[wrapper];
  let chdir: string | undefined;
  while (w[0]?.startsWith("-") && w[0] !== "-") {
    const opt = w[0];
    if (opt === "--") {
      w.shift();
      break;
    }
    if (wrapper === "env" && (opt === "-C" || opt === "--chdir")) chdir = w[1];
    else if (wrapper === "env" && opt.startsWith("--chdir=")) chdir = opt.slice(8);
    w.splice(0, valued?.has(opt) ? 2 : 1);
  }
  if (wrapper === "timeout" && w[0] !== undefined && /^\d+(?:\.\d+)?[smhd]?$/.test(w[0])) w.shift();
  return chdir;
}

const WRAPPERS = new Set([
  "env",
  "time",
  "exec",
  "command",
  "nice",
  "nohup",
  "!",
  "xargs",
  "timeout",
  "stdbuf",
  "ionice",
  "setsid",
]);

/** `a` joined with `b` (repo-relative, never above the root: `..` past it stays at the root). */
export function join(a: string, b: string): string {
  const p = posix.normalize(posix.join(a === "" ? "." : a, b.replace(/^\/+/, "")));
  return p === "." || p.startsWith("..") ? "" : p.replace(/\/$/, "");
}

/** The line's words grouped by simple command: quotes honoured, operators and comments split. */
function splitLine(line: string): string[][] {
  const groups: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endGroup = () => {
    endWord();
    if (words.length > 0) groups.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end < 0 ? line.length : end);
      inWord = true;
      i = end < 0 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === "\\" && j + 1 < line.length) j++;
        word += line[j];
        j++;
      }
      inWord = true;
      i = j;
    } else if (c === "\\" && i + 1 < line.length) {
      if (line[i + 1] !== "\n") {
        word += line[i + 1];
        inWord = true;
      }
      i++;
    } else if (c === "#" && !inWord) {
      while (i < line.length && line[i] !== "\n") i++;
      endGroup();
    } else if (";&|\n".includes(c)) {
      endGroup();
    } else if ((c === "(" || c === ")" || c === "{" || c === "}") && !inWord) {
      endGroup();
    } else if (c === " " || c === "\t" || c === "\r") {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endGroup();
  return groups;
}
