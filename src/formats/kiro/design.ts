import type { KiroProperty, KiroReference } from "../../model/contract.js";
import { atxText } from "../markdown/lines.js";
import { headingLevel, type KiroDoc, locate } from "./read.js";
import { type RefList, readRefList, validatesList } from "./refs.js";

/** `### Property 1: Title` (RULES §2.2: 528 obs.). */
const HEADING = /^Property[ \t]+(\d+[a-z]?)[ \t]*(?:[:.\-—–][ \t]*(.*))?$/i;
/** `**Property 1: Title**`, `1. **Property 1: Title**`, `- **Property 1: …**` (205 + 27 obs.). */
const BOLD =
  /^(?:\d+\.[ \t]+|[-*+][ \t]+)?\*\*Property[ \t]+(\d+[a-z]?)[ \t]*[:.\-—–][ \t]*(.*?)\*\*/i;
/** `Property 1: …` as a plain paragraph (78 obs.). */
const PLAIN = /^Property[ \t]+(\d+[a-z]?)[ \t]*:[ \t]*(.*)$/i;

/**
 * design.md's correctness properties, each with the criteria its `Validates:`
 * line cites (the line attaches to the property above it). A `Validates:`
 * line before any property still has its references checked (`loose`).
 */
export function readProperties(
  kd: KiroDoc,
  refs: RefList,
): { properties: KiroProperty[]; loose: KiroReference[] } {
  const { doc } = kd;
  const properties: KiroProperty[] = [];
  const loose: KiroReference[] = [];
  let current: KiroProperty | undefined;
  for (let i = 0; i < doc.lines.length; i++) {
    if (doc.hidden[i]) continue;
    const line = doc.visible[i]!;
    const level = headingLevel(line);
    const m =
      level >= 2 ? HEADING.exec(atxText(line)) : (BOLD.exec(line.trim()) ?? PLAIN.exec(line));
    if (m) {
      current = { id: m[1]!, title: (m[2] ?? "").trim(), refs: [], location: locate(doc, i) };
      properties.push(current);
      continue;
    }
    if (level > 0 && level <= 2) current = undefined;
    const list = validatesList(line);
    if (!list) continue;
    const own: RefList = { refs: current?.refs ?? loose, unparsed: refs.unparsed, wide: refs.wide };
    readRefList(list.text, doc.path, i + 1, list.column, own);
  }
  return { properties, loose };
}
