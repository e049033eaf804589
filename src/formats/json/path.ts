/** A path into a JSON value: object keys and array indexes, root first. */
export type JsonPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Render a path the way zod and JavaScript users read it:
 * `tasks[2].verification[0].path`. Keys that are not identifiers are quoted
 * (`["weird key"]`) so a message never hides which key it means.
 */
export function formatPath(path: JsonPath): string {
  if (path.length === 0) return "(root)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** RFC 6901 JSON pointer: unambiguous for any key, so it can key the location map. */
export function toPointer(path: JsonPath): string {
  return path.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
