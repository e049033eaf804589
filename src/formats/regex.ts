/**
 * Contract regexes (`pattern`, `expect_stdout_match`, `matcher`, `EXPECT: /re/`)
 * are ECMAScript regular expressions. This reports why one does not compile,
 * or `undefined` when it does. Checks run them later under a time bound.
 */
export function regexError(source: string, flags = ""): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: /, "");
  }
}
