import type { ChangedFile } from "../model/changed-file.js";

/** `git diff --name-status -z` output → changed files (renames and copies with both paths). */
export function parseNameStatus(out: string): ChangedFile[] {
  const fields = out.split("\0").filter((f) => f !== "");
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++]!;
    const letter = code[0];
    if (letter === "R" || letter === "C") {
      const from = fields[i++]!;
      const to = fields[i++]!;
      files.push({ path: to, status: letter === "R" ? "renamed" : "copied", previousPath: from });
    } else {
      const path = fields[i++]!;
      files.push({
        path,
        status: letter === "A" ? "added" : letter === "D" ? "removed" : "modified",
      });
    }
  }
  return files;
}
