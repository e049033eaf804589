import type { ContractKind } from "../../model/contract.js";

/**
 * OpenSpec (Fission-AI/OpenSpec): an active change is the folder
 * `openspec/changes/<id>/`, one contract represented by its `proposal.md`
 * (its tasks, design and delta specs are read with it); the main specs
 * `openspec/specs/<capability>/spec.md` are contracts of their own, gated for
 * structure when a PR edits them. `openspec/changes/archive/**` is history.
 */
export const OPENSPEC_GLOBS: readonly string[] = [
  "openspec/changes/*/proposal.md",
  "openspec/specs/**/spec.md",
];

/** Where a path lies in an OpenSpec tree, from its path alone. */
export type OpenspecPlace =
  | {
      kind: "change";
      /** The directory holding `openspec/` with a trailing `/` ("" at the root). */
      root: string;
      /** The change folder's name. */
      id: string;
      /** The path inside the change folder (`proposal.md`, `specs/auth/spec.md`). */
      rest: string;
    }
  | { kind: "archived"; root: string; rest: string }
  | { kind: "main-spec"; root: string; capability: string }
  /** Under `openspec/specs/` but no `spec.md` (a design note beside a spec). */
  | { kind: "spec-tree"; root: string }
  | { kind: "none" };

/**
 * The first `openspec/changes/` or `openspec/specs/` in the path decides, so
 * an OpenSpec tree inside a package of a monorepo is read the same way.
 */
export function openspecPlace(path: string): OpenspecPlace {
  const parts = path.split("/");
  for (let i = 0; i + 2 < parts.length; i++) {
    if (parts[i] !== "openspec") continue;
    const root = parts.slice(0, i).join("/");
    const base = root === "" ? "" : `${root}/`;
    if (parts[i + 1] === "changes") {
      const rest = parts.slice(i + 3).join("/");
      if (parts[i + 2] === "archive") return { kind: "archived", root: base, rest };
      if (rest === "") continue;
      return { kind: "change", root: base, id: parts[i + 2]!, rest };
    }
    if (parts[i + 1] === "specs") {
      const name = parts[parts.length - 1];
      if (name === "spec.md" && parts.length - i >= 4) {
        return { kind: "main-spec", root: base, capability: parts.slice(i + 2, -1).join("/") };
      }
      return { kind: "spec-tree", root: base };
    }
  }
  return { kind: "none" };
}

/**
 * The kind of an OpenSpec markdown file: every file of an active change is
 * the change (discovery names it by its `proposal.md`, see
 * `openspecContractPath`), a main spec is `openspec-spec`; an archived
 * change and other files under `openspec/specs/` are no contract at all,
 * never read as another kind's file. `"none"` outside OpenSpec trees.
 */
export function openspecKindOf(path: string): ContractKind | undefined | "none" {
  const place = openspecPlace(path);
  switch (place.kind) {
    case "change":
      return "openspec-change";
    case "main-spec":
      return "openspec-spec";
    case "archived":
    case "spec-tree":
      return undefined;
    case "none":
      return "none";
  }
}

/** The contract a file of an active change belongs to: the change's `proposal.md`; any other path as given. */
export function openspecContractPath(path: string): string {
  const place = openspecPlace(path);
  return place.kind === "change" ? `${place.root}openspec/changes/${place.id}/proposal.md` : path;
}
