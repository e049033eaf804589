import type { Problem } from "../../model/contract.js";
import { problem } from "../../model/problems.js";
import type { JsonDocument } from "../json/document.js";
import { formatPath, type JsonPath } from "../json/path.js";
import { field, type JsonObject, type Located } from "../json/raw.js";

/**
 * Rules 3–5 on the `depends_on` graph: unknown ids, cycles, wave order.
 * Only the first task with a given id is a graph node; a second one is
 * already a `duplicate-task-id` and would only add confusing edges.
 */
export function dependencyProblems(
  doc: JsonDocument,
  tasks: readonly Located<JsonObject>[],
): Problem[] {
  // Each task's dependency list, read once for the graph and for both rules.
  const deps = tasks.map((task) => dependencyList(task.value));
  const graph = buildGraph(tasks, deps);
  const problems: Problem[] = [];

  // Rule 3: every dependency names a task of this contract.
  let hint: string | undefined;
  tasks.forEach((task, t) => {
    const list = deps[t]!;
    for (let i = 0; i < list.length; i++) {
      const dep = list[i];
      if (typeof dep !== "string" || graph.nodes.has(dep)) continue;
      hint ??= dependencyHint([...graph.nodes.keys()]);
      const path = [...task.path, "depends_on", i];
      problems.push(
        problem(
          "unknown-dependency",
          doc.valueAt(path),
          `${formatPath(path)} is ${JSON.stringify(dep)}, which is not a task id in this contract`,
          { hint },
        ),
      );
    }
  });

  // Most contracts list tasks after what they depend on: then there is no
  // cycle to look for, and every task is a component of its own.
  const component = acyclicInTaskOrder(graph) ? undefined : stronglyConnectedComponents(graph);
  if (component !== undefined) {
    for (const p of cycleProblems(doc, graph, component)) problems.push(p);
  }

  // Rule 5: wave > wave of every dependency. Edges inside a cycle are skipped:
  // no wave assignment can satisfy a cycle, and the cycle is already reported.
  tasks.forEach((task, t) => {
    const id = field(task.value, "id");
    const wave = field(task.value, "wave");
    if (typeof wave !== "number") return;
    const name = typeof id === "string" ? id : formatPath(task.path);
    const self = typeof id === "string" ? graph.nodes.get(id) : undefined;
    const isNode = self !== undefined && self.task === task;
    const list = deps[t]!;
    for (let i = 0; i < list.length; i++) {
      const dep = list[i];
      if (typeof dep !== "string") continue;
      const target = graph.nodes.get(dep);
      if (!target) continue;
      const depWave = field(target.task.value, "wave");
      if (typeof depWave !== "number" || wave > depWave) continue;
      const sameComponent =
        component !== undefined && component.get(dep) === component.get(id as string);
      if (isNode && sameComponent) continue;
      problems.push(
        problem(
          "wave-order",
          doc.valueAt([...task.path, "wave"]),
          `${name} is in wave ${wave} but depends on ${dep} in wave ${depWave}; its wave must be greater than ${depWave}`,
        ),
      );
    }
  });
  return problems;
}

interface Edge {
  to: string;
  /** The task whose `depends_on` entry at `index` creates the edge, for locating problems. */
  from: Located<JsonObject>;
  index: number;
}

/** Where the `depends_on` entry that creates an edge sits. */
function edgePath(edge: Edge): JsonPath {
  return [...edge.from.path, "depends_on", edge.index];
}

const NO_DEPENDENCIES: readonly unknown[] = [];

/** A task's `depends_on` entries (non-strings are the schema's to report, and are skipped). */
function dependencyList(task: JsonObject): readonly unknown[] {
  const list = field(task, "depends_on");
  return Array.isArray(list) ? list : NO_DEPENDENCIES;
}

interface GraphNode {
  task: Located<JsonObject>;
  /** Position among the nodes (task order). */
  index: number;
  edges: Edge[];
}

interface Graph {
  /** Insertion order is task order, which makes every report deterministic. */
  nodes: Map<string, GraphNode>;
  /** The same nodes in the same order, for walks that need no ids. */
  list: GraphNode[];
}

/** `deps[i]` is the `depends_on` of `tasks[i]`. */
function buildGraph(
  tasks: readonly Located<JsonObject>[],
  deps: readonly (readonly unknown[])[],
): Graph {
  const nodes = new Map<string, GraphNode>();
  const list: GraphNode[] = [];
  const nodeDeps: (readonly unknown[])[] = [];
  tasks.forEach((task, t) => {
    const id = field(task.value, "id");
    if (typeof id === "string" && !nodes.has(id)) {
      const node = { task, index: list.length, edges: [] };
      nodes.set(id, node);
      list.push(node);
      nodeDeps.push(deps[t]!);
    }
  });
  for (let n = 0; n < list.length; n++) {
    const node = list[n]!;
    const depList = nodeDeps[node.index]!;
    // One dependency cannot repeat: no set needed for the common case.
    const seen = depList.length > 1 ? new Set<string>() : undefined;
    for (let i = 0; i < depList.length; i++) {
      const dep = depList[i];
      if (typeof dep !== "string" || !nodes.has(dep) || seen?.has(dep)) continue;
      seen?.add(dep);
      const edge = { to: dep, from: node.task, index: i };
      // Most tasks have one dependency: an exact one-slot array, not push's growth.
      if (node.edges.length === 0) node.edges = [edge];
      else node.edges.push(edge);
    }
  }
  return { nodes, list };
}

/**
 * Whether every edge points to an earlier task: then the graph has no cycle
 * (task order is a topological order) and each task is its own component.
 */
function acyclicInTaskOrder(graph: Graph): boolean {
  for (let n = 0; n < graph.list.length; n++) {
    const node = graph.list[n]!;
    for (let e = 0; e < node.edges.length; e++) {
      if (graph.nodes.get(node.edges[e]!.to)!.index >= node.index) return false;
    }
  }
  return true;
}

/**
 * Tarjan's algorithm, iterative: a contract near the 1 MiB cap can hold
 * thousands of tasks in one chain, deeper than the call stack allows.
 * Returns each node's component number.
 */
function stronglyConnectedComponents(graph: Graph): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;

  for (const start of graph.nodes.keys()) {
    if (index.has(start)) continue;
    const work: { id: string; next: number }[] = [{ id: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.nodes.get(frame.id)!.edges;
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.set(member, components);
        } while (member !== frame.id);
        components++;
      }
    }
  }
  return component;
}

/** Cycles named one by one; beyond this, the rest are summarised in one problem. */
const MAX_REPORTED_CYCLES = 50;
/** Tasks shown in a cycle message before the middle is elided. */
const MAX_CYCLE_NAMES = 16;

/**
 * Rule 4. Enumerating every elementary cycle is exponential, so instead each
 * task on a cycle that no reported cycle covers yet contributes the shortest
 * cycle through it (so every cycle found is new), rotated to start at its
 * earliest task. After MAX_REPORTED_CYCLES the remaining tasks on cycles are
 * summarised, which bounds the work at O(MAX_REPORTED_CYCLES · E) even for
 * a hostile 1 MiB contract.
 */
function cycleProblems(doc: JsonDocument, graph: Graph, component: Map<string, number>) {
  const order = new Map([...graph.nodes.keys()].map((id, i) => [id, i]));
  const size = new Map<number, number>();
  for (const c of component.values()) size.set(c, (size.get(c) ?? 0) + 1);
  const onCycle = (id: string) =>
    size.get(component.get(id)!)! > 1 || graph.nodes.get(id)!.edges.some((e) => e.to === id);

  const covered = new Set<string>();
  const problems: Problem[] = [];
  const remaining: string[] = [];
  for (const id of graph.nodes.keys()) {
    if (covered.has(id) || !onCycle(id)) continue;
    if (problems.length >= MAX_REPORTED_CYCLES) {
      remaining.push(id);
      continue;
    }
    const cycle = shortestCycleThrough(graph, id, component)!;
    for (const member of cycle) covered.add(member);
    const rotated = rotateToEarliest(cycle, order);
    problems.push(
      problem(
        "dependency-cycle",
        doc.valueAt(edgePath(edgeBetween(graph, rotated[0]!, rotated[1 % rotated.length]!))),
        `dependency cycle: ${cycleNames(rotated)}`,
        { hint: "remove one of these dependencies; depends_on must not loop back" },
      ),
    );
  }
  const next = remaining[0];
  if (next !== undefined) {
    const edge = graph.nodes
      .get(next)!
      .edges.find((e) => component.get(e.to) === component.get(next))!;
    const shown = remaining.slice(0, 10).join(", ");
    problems.push(
      problem(
        "dependency-cycle",
        doc.valueAt(edgePath(edge)),
        `${remaining.length} more tasks are on dependency cycles: ${shown}${remaining.length > 10 ? ", …" : ""}`,
        { hint: "fix the cycles reported above, then validate again" },
      ),
    );
  }
  return problems;
}

function edgeBetween(graph: Graph, from: string, to: string): Edge {
  return graph.nodes.get(from)!.edges.find((e) => e.to === to)!;
}

/** `T1 → T3 → T1`; very long cycles keep their ends and elide the middle. */
function cycleNames(cycle: string[]): string {
  const closed = [...cycle, cycle[0]!];
  if (closed.length <= MAX_CYCLE_NAMES) return closed.join(" → ");
  const head = closed.slice(0, MAX_CYCLE_NAMES / 2);
  const tail = closed.slice(-MAX_CYCLE_NAMES / 2);
  const elided = closed.length - head.length - tail.length;
  return `${head.join(" → ")} → … ${elided} more … → ${tail.join(" → ")}`;
}

/** BFS inside the node's strongly connected component; `[a, b, c]` means a → b → c → a. */
function shortestCycleThrough(graph: Graph, start: string, component: Map<string, number>) {
  const home = component.get(start);
  const previous = new Map<string, string>();
  const queue: string[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head]!;
    for (const { to } of graph.nodes.get(current)!.edges) {
      if (component.get(to) !== home) continue;
      if (to === start) {
        const cycle = [current];
        for (let at = current; at !== start; ) {
          at = previous.get(at)!;
          cycle.push(at);
        }
        return cycle.reverse();
      }
      if (previous.has(to)) continue;
      previous.set(to, current);
      queue.push(to);
    }
  }
  return undefined;
}

function rotateToEarliest(cycle: string[], order: Map<string, number>): string[] {
  let best = 0;
  for (let i = 1; i < cycle.length; i++) {
    if (order.get(cycle[i]!)! < order.get(cycle[best]!)!) best = i;
  }
  return [...cycle.slice(best), ...cycle.slice(0, best)];
}

/**
 * Known ids rather than "did you mean": ids like T3 and T2 are always one
 * edit apart, so a guess would mislead more often than help.
 */
function dependencyHint(known: string[]): string {
  if (known.length === 0) return "this contract has no tasks with an id";
  const shown = known.slice(0, 10).join(", ");
  return `known task ids: ${shown}${known.length > 10 ? ", …" : ""}`;
}
