import { canonical } from "./check-align.js";
import { type Finding, finding } from "./types.js";
import type { ContractVersion } from "./version.js";

type Item = Record<string, unknown>;

/** The items of a QR file by id, in file order; items without a string id are not comparable. */
function itemsById(json: unknown): Map<string, Item> {
  const out = new Map<string, Item>();
  const items = (json as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return out;
  for (const it of items) {
    if (typeof it !== "object" || it === null || Array.isArray(it)) continue;
    const id = (it as Item).id;
    if (typeof id === "string" && !out.has(id)) out.set(id, it as Item);
  }
  return out;
}

function iterationOf(json: unknown): number | undefined {
  const n = (json as { iteration?: unknown } | null)?.iteration;
  return typeof n === "number" && Number.isInteger(n) ? n : undefined;
}

/** The head line of item `id` (its criterion), 1 when it has none there. */
function lineOf(head: ContractVersion, id: string): number {
  return head.contract.criteria.find((c) => c.id === id)?.location.line ?? 1;
}

/** A one-line rendering of an item for before → after (stable key order as written). */
const show = (item: Item) => JSON.stringify(item);

/**
 * A QR file that persists from base to head. Every finding is a warning
 *: upstream deletes a QR file when it passes and a manual
 * re-decompose restarts at iteration 1, so these changes are often honest;
 * they are shown so a reviewer sees a PASS rewritten, the checklist
 * reshaped, or the counter that caps the loop ("Maximum 5 iterations per QR
 * phase", 002) wound back. Pure.
 */
export function qrFindings(base: ContractVersion, head: ContractVersion): Finding[] {
  if (base.json === undefined || head.json === undefined) return [];
  const at = {
    contract: head.path,
    kind: head.contract.kind,
    path: head.path,
    line: 1,
  };
  const out: Finding[] = [];
  const before = iterationOf(base.json);
  const after = iterationOf(head.json);
  if (before !== undefined && after !== undefined && after < before) {
    out.push(
      finding({
        code: "qr-iteration-decreased",
        ...at,
        subject: "iteration",
        message: `iteration went from ${before} back to ${after}`,
        before: String(before),
        after: String(after),
      }),
    );
  }
  const was = itemsById(base.json);
  const now = itemsById(head.json);
  for (const [id, item] of was) {
    const next = now.get(id);
    if (next === undefined) {
      out.push(
        finding({
          code: "qr-item-removed",
          ...at,
          subject: `item ${id}`,
          message: `item ${id} was removed while ${head.path} persists`,
          before: show(item),
        }),
      );
    } else if (item.status === "PASS" && canonical(item) !== canonical(next)) {
      // Compared by content (sorted keys): reordering keys or reformatting is no change.
      out.push(
        finding({
          code: "qr-pass-changed",
          ...at,
          line: lineOf(head, id),
          subject: `item ${id}`,
          message: `item ${id} was PASS at base and changed`,
          before: show(item),
          after: show(next),
        }),
      );
    }
  }
  for (const [id, item] of now) {
    if (was.has(id)) continue;
    out.push(
      finding({
        code: "qr-item-added",
        ...at,
        line: lineOf(head, id),
        subject: `item ${id}`,
        message: `item ${id} was added while ${head.path} persists`,
        after: show(item),
      }),
    );
  }
  return out;
}

/** A QR file gone at head: upstream deletes it on PASS, so it is shown, never blocking. */
export function qrRemoved(base: ContractVersion): Finding {
  return finding({
    code: "qr-removed",
    contract: base.path,
    kind: base.contract.kind,
    path: base.path,
    line: 1,
    subject: "contract",
    message: `${base.path} was deleted (upstream deletes a quality-review file when its review passes)`,
  });
}
