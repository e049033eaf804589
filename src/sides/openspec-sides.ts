import { openspecPlace } from "../formats/kinds/openspec.js";
import { parseDelta } from "../formats/openspec/delta.js";
import { parseTasks } from "../formats/openspec/tasks.js";
import { MAX_CONTRACT_BYTES } from "../formats/text.js";
import { readRepoFile } from "../fs/repo-file.js";
import type { Git } from "../git/index.js";
import type { VersionPair } from "../integrity/compare.js";
import type { DeclaredDeltas } from "../integrity/openspec-diff.js";

/** Where the two sides are read: the merge base with git, the head at a commit or in the working tree. */
export interface Sides {
  git: Git;
  mergeBase: string;
  headCommit?: string;
  changed?: ReadonlySet<string>;
}

/**
 * What the OpenSpec rules compare beside the files themselves, read here so
 * `integrity/` stays pure: for each touched main spec, the delta specs the
 * PR adds, edits or archives for its capability (read at head); for each
 * change the PR archives or deletes, its tasks (the archived copy at head,
 * or at base when deleted). A PR whose changed paths are unknown declares
 * nothing.
 */
export async function withOpenspecSides(sides: Sides, pairs: VersionPair[]): Promise<void> {
  const specs = pairs.filter((p) => p.base?.contract.kind === "openspec-spec");
  const closed = pairs.filter(
    (p) => p.base?.contract.kind === "openspec-change" && p.head?.path !== p.base.path,
  );
  if (specs.length === 0 && closed.length === 0) return;
  const changed = [...(sides.changed ?? [])];
  const readHead = async (paths: string[]) => {
    if (sides.headCommit !== undefined) {
      const reads = await sides.git.readAt(
        sides.headCommit,
        paths.map((path) => ({ path, limit: MAX_CONTRACT_BYTES })),
      );
      return new Map(
        paths.flatMap((p) => {
          const r = reads.get(p);
          return r?.kind === "file" ? [[p, r.bytes] as const] : [];
        }),
      );
    }
    return new Map(
      paths.flatMap((p) => {
        const r = readRepoFile(sides.git.root, p, MAX_CONTRACT_BYTES);
        return r.kind === "file" && r.size <= MAX_CONTRACT_BYTES ? [[p, r.bytes] as const] : [];
      }),
    );
  };

  if (specs.length > 0) {
    // Delta specs among the changed paths, by "<root>|<capability>".
    const deltas = new Map<string, string[]>();
    for (const p of changed) {
      const cap = deltaCapability(p);
      if (cap === undefined) continue;
      const list = deltas.get(cap) ?? [];
      list.push(p);
      deltas.set(cap, list);
    }
    const bytes = await readHead([...deltas.values()].flat());
    for (const pair of specs) {
      const place = openspecPlace(pair.base!.path);
      if (place.kind !== "main-spec") continue;
      const declared = {
        removed: new Set<string>(),
        modified: new Set<string>(),
        renamed: new Map<string, string>(),
      };
      for (const path of deltas.get(`${place.root}|${place.capability}`) ?? []) {
        const b = bytes.get(path);
        if (b === undefined) continue;
        const { delta } = parseDelta(path, place.capability, b);
        for (const r of delta.removed) declared.removed.add(r.name);
        for (const r of delta.modified) declared.modified.add(r.name);
        for (const r of delta.renamed) declared.renamed.set(r.from, r.to);
      }
      pair.openspec = { ...pair.openspec, declared: declared satisfies DeclaredDeltas };
    }
  }

  for (const pair of closed) {
    const place = openspecPlace(pair.base!.path);
    if (place.kind !== "change") continue;
    const archivedTo = changed.find((p) => {
      const q = openspecPlace(p);
      if (q.kind !== "archived" || q.root !== place.root) return false;
      const [dir, file, ...more] = q.rest.split("/");
      return (
        more.length === 0 &&
        file === "proposal.md" &&
        (dir === place.id || dir!.endsWith(`-${place.id}`))
      );
    });
    let tasksPath: string;
    let tasks: Uint8Array | undefined;
    if (archivedTo !== undefined) {
      tasksPath = `${archivedTo.slice(0, archivedTo.lastIndexOf("/") + 1)}tasks.md`;
      tasks = (await readHead([tasksPath])).get(tasksPath);
    } else {
      tasksPath = `${pair.base!.path.slice(0, pair.base!.path.lastIndexOf("/") + 1)}tasks.md`;
      const read = (
        await sides.git.readAt(sides.mergeBase, [{ path: tasksPath, limit: MAX_CONTRACT_BYTES }])
      ).get(tasksPath);
      tasks = read?.kind === "file" ? read.bytes : undefined;
    }
    const open =
      tasks === undefined
        ? []
        : parseTasks(tasksPath, tasks)
            .tasks.filter((t) => !t.done)
            .map((t) => ({
              id: t.id ?? t.text.slice(0, 40),
              line: t.location.line,
              path: tasksPath,
            }));
    pair.openspec = {
      ...pair.openspec,
      closed: {
        ...(archivedTo !== undefined && {
          archivedTo: archivedTo.slice(0, archivedTo.lastIndexOf("/")),
        }),
        openTasks: open,
      },
    };
  }
}

/** `<root>|<capability>` of a delta spec path (active or archived change), else undefined. */
function deltaCapability(path: string): string | undefined {
  const place = openspecPlace(path);
  if (place.kind !== "change" && place.kind !== "archived") return undefined;
  const rest = place.kind === "change" ? place.rest : place.rest.slice(place.rest.indexOf("/") + 1);
  if (!rest.startsWith("specs/") || !rest.endsWith("/spec.md")) return undefined;
  const capability = rest.slice("specs/".length, -"/spec.md".length);
  return capability === "" ? undefined : `${place.root}|${capability}`;
}
