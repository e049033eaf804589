import picomatch from "picomatch";
import { lineOfKey, manifestKind, readManifest } from "./manifests.js";

export { manifestKind } from "./manifests.js";

/** A package the head's manifest makes the project install that the base's did not. */
export interface AddedDependency {
  /** What gets installed (an alias's target, a git source with its URL). */
  id: string;
  name: string;
  section: string;
  /** In the head version. */
  line: number;
}

/**
 * The seed's guardrail "no new dependency in a manifest when the spec forbids
 * one" (004, step E), read from both versions parsed, never grepped. A version
 * that does not parse is an error naming its side and line, never "no new
 * dependencies": a PR could otherwise break the manifest's syntax to hide one.
 * A package counts as new when no section of the base's manifest has it, so
 * moving one from `devDependencies` to `dependencies` is no new package.
 * No base (an added manifest): every entry is new; no head (deleted): none is.
 */
export type AddedDependencies =
  | { manifest: false }
  | { manifest: true; ok: true; added: AddedDependency[] }
  | { manifest: true; ok: false; side: "base" | "head"; line: number; message: string };

export function addedDependencies(
  path: string,
  baseText: string | undefined,
  headText: string | undefined,
): AddedDependencies {
  const kind = manifestKind(path);
  if (kind === undefined) return { manifest: false };
  if (headText === undefined) return { manifest: true, ok: true, added: [] };
  const head = readManifest(kind, headText);
  if (!head.ok)
    return {
      manifest: true,
      ok: false,
      side: "head",
      line: head.line,
      message: `${path}: ${head.message}`,
    };
  const base =
    baseText === undefined ? { ok: true as const, entries: [] } : readManifest(kind, baseText);
  if (!base.ok)
    return {
      manifest: true,
      ok: false,
      side: "base",
      line: base.line,
      message: `${path} (base): ${base.message}`,
    };
  const known = new Set(base.entries.map((e) => e.id));
  const seen = new Set<string>();
  const added: AddedDependency[] = [];
  // A manifest that appears at all is a new way to install packages, even while it lists none.
  if (baseText === undefined)
    added.push({ id: `a new ${path}`, name: path, section: "file", line: 1 });
  for (const e of head.entries) {
    if (known.has(e.id) || seen.has(e.id)) continue;
    seen.add(e.id);
    added.push({
      id: e.id,
      name: e.name,
      section: e.section,
      line: e.line ?? lineOfKey(headText, e.name),
    });
  }
  return { manifest: true, ok: true, added };
}

/** A `## Guardrails` bullet as the spec parser hands it over. */
export interface GuardrailBullet {
  text: string;
  line: number;
  /** The heading or parent bullet it sits under, e.g. `Protected surfaces`. */
  under?: string;
}

export interface ProtectedMatch {
  /** The bullet's line in the spec. */
  line: number;
  pattern: string;
  path: string;
}

const PROTECTED_SURFACES = /^\s*protected surfaces?\b/i;
const PROTECTED_COLON = /^\s*protected\s*:\s*(.+)$/i;

/**
 * The protected paths a bullet names: every backticked path or glob of a bullet
 * under "Protected surfaces" (or one that starts with those words), and the
 * globs after `Protected:`, with or without backticks, comma- or space-separated.
 * Other bullets name none (they are manual criteria, shown with their text).
 */
export function protectedPatterns(bullet: GuardrailBullet): string[] {
  const colon = PROTECTED_COLON.exec(bullet.text);
  if (colon) {
    // Comma-separated items: an item with backticks names what they hold (the rest
    // of it is prose); one without is a path when it is one word, else its words
    // that look like paths (a `/`, `*` or `.` in them).
    const out: string[] = [];
    for (const item of (colon[1] as string).split(",")) {
      const ticked = backticked(item);
      const words = item
        .trim()
        .split(/\s+/)
        .filter((w) => w !== "");
      if (ticked.length > 0) out.push(...ticked);
      else if (words.length === 1) out.push(words[0] as string);
      else out.push(...words.filter((w) => /[/*.]/.test(w)));
    }
    return out;
  }
  if (
    PROTECTED_SURFACES.test(bullet.text) ||
    (bullet.under !== undefined && PROTECTED_SURFACES.test(bullet.under))
  ) {
    return backticked(bullet.text);
  }
  return [];
}

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)]
    .map((m) => (m[1] as string).trim())
    .filter((p) => p !== "");
}

/**
 * Which changed paths (give a rename's both paths) each protected bullet
 * catches. A path with no glob characters protects itself and everything under
 * it; a trailing `/` names a folder.
 */
export function protectedPathMatches(
  bullets: readonly GuardrailBullet[],
  changedPaths: readonly string[],
): ProtectedMatch[] {
  const out: ProtectedMatch[] = [];
  const paths = [...new Set(changedPaths.map(normalise))].sort();
  for (const bullet of bullets) {
    for (const pattern of protectedPatterns(bullet)) {
      const p = normalise(pattern).replace(/\/+$/, "");
      const globs = picomatch.scan(p).isGlob ? [p] : [p, `${p}/**`];
      const matches = picomatch(globs, { dot: true });
      for (const path of paths) if (matches(path)) out.push({ line: bullet.line, pattern, path });
    }
  }
  return out;
}

function normalise(path: string): string {
  return path.replace(/\\/g, "/").replace(/^\.\//, "").replace(/^\/+/, "");
}
