/**
 * Rule 8: `command-exit` runs `command` with execFile, never a shell. A shell
 * metacharacter or whitespace in `command` means the author expected shell
 * parsing (`npx tsc --noEmit`, `a && b`) that will not happen, so the check
 * would test something other than what it says. Arguments belong in `args`.
 */
export const UNSAFE_COMMAND_CHAR = /[\s;&|`$()<>*?[\]{}~!#'"\\]/gu;
/** The same class, for a yes/no test (a global regex's `test` is stateful). */
const HAS_UNSAFE_COMMAND_CHAR = new RegExp(UNSAFE_COMMAND_CHAR.source, "u");

/** The distinct offending characters of a command, in order of appearance. */
export function unsafeCommandChars(command: string): string[] {
  if (!HAS_UNSAFE_COMMAND_CHAR.test(command)) return [];
  return [...new Set(command.match(UNSAFE_COMMAND_CHAR) ?? [])];
}

/** How a message names a character: words for invisible ones, backticks for the rest. */
export function describeChar(char: string): string {
  switch (char) {
    case " ":
      return "a space";
    case "\t":
      return "a tab";
    case "\n":
      return "a newline";
    case "\r":
      return "a carriage return";
    case "`":
      return "a backtick";
    default: {
      if (/\s/u.test(char)) {
        const hex = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
        return `whitespace U+${hex}`;
      }
      return `\`${char}\``;
    }
  }
}

/**
 * A hint that shows the fix. When whitespace is the only problem the command
 * splits cleanly, so the hint spells out the exact `command`/`args` to write.
 */
export function commandHint(command: string, chars: readonly string[]): string {
  if (chars.every((c) => /\s/u.test(c))) {
    const [program, ...args] = command.trim().split(/\s+/u);
    if (program) {
      return `commands run without a shell; write "command": ${JSON.stringify(program)}, "args": [${args.map((a) => JSON.stringify(a)).join(", ")}]`;
    }
  }
  return 'commands run without a shell (execFile); put the program in "command" and each argument in "args"';
}
