/**
 * `.git/config` as checks see it: `actions/checkout` persists the job token
 * there (`http.<url>.extraheader = AUTHORIZATION: basic …`), and remotes can
 * carry `https://user:token@host` URLs. Both are dropped; the rest stays, so
 * git inside a check behaves as on the runner. Conservative by line: a
 * continuation line of a dropped value is dropped too.
 */
export function sanitizeGitConfig(text: string): string {
  const out: string[] = [];
  let dropping = false;
  for (const line of text.split("\n")) {
    if (dropping) {
      dropping = line.trimEnd().endsWith("\\");
      continue;
    }
    if (/^\s*extraheader\s*(=|$)/i.test(line)) {
      dropping = line.trimEnd().endsWith("\\");
      continue;
    }
    // userinfo in any URL: scheme://user:secret@host → scheme://host
    out.push(line.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s"]+@/gi, "$1"));
  }
  return out.join("\n");
}
