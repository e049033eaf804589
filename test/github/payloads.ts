/**
 * Webhook payloads for tests, taken from @octokit/webhooks-examples (real
 * payloads GitHub sent) rather than typed by hand, then patched to the
 * repository, pull request and shas a test needs.
 */
import { createRequire } from "node:module";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import type {
  PullRequestEvent,
  PushEvent,
  WebhookEventMap,
  WorkflowDispatchEvent,
} from "@octokit/webhooks-types";

const definitions = createRequire(import.meta.url)(
  "@octokit/webhooks-examples",
) as WebhookDefinition[];

/**
 * Event names a workflow sees. `pull_request_target` has no examples of its
 * own: GitHub sends it the `pull_request` webhook payload, so that is used.
 */
export type ExampleEvent = keyof WebhookEventMap | "pull_request_target";

export type PayloadOf<E extends ExampleEvent> = E extends "pull_request_target"
  ? PullRequestEvent
  : E extends keyof WebhookEventMap
    ? WebhookEventMap[E]
    : never;

export interface PayloadPatch {
  /** Base repository owner and name (default: the example's). */
  owner?: string;
  repo?: string;
  /** Pull request number. */
  number?: number;
  headSha?: string;
  baseSha?: string;
  headRef?: string;
  baseRef?: string;
  /**
   * Head repository: `false` (default) the base repository, `true` a fork
   * owned by `fork-owner`, `"owner/name"` a fork with that name, `null` a
   * deleted fork.
   */
  fork?: boolean | string | null;
  /** `push` / `workflow_dispatch`: the pushed sha (`after`) and ref. */
  sha?: string;
  ref?: string;
  /** `workflow_dispatch` inputs. */
  inputs?: Record<string, string>;
}

/**
 * A deep copy of a real example of `event` (with `action`, when given),
 * patched. Throws when no example matches, listing the actions that exist.
 */
export function examplePayload<E extends ExampleEvent>(
  event: E,
  action?: string,
  patch: PayloadPatch = {},
): PayloadOf<E> {
  const name = event === "pull_request_target" ? "pull_request" : event;
  const def = definitions.find((d) => d.name === name);
  if (!def) throw new Error(`no webhook examples for ${event}`);
  const found = (def.examples as unknown as Array<Record<string, unknown>>).find(
    (e) => action === undefined || e.action === action,
  );
  if (!found) {
    const actions = [...new Set(def.examples.map((e) => (e as { action?: string }).action))];
    throw new Error(
      `no ${event} example with action ${action}; examples have: ${actions.join(", ")}`,
    );
  }
  const original = found.repository as {
    full_name: string;
    owner: { login: string };
    name: string;
  };
  const fromFull = original.full_name;
  const fromOwner = original.owner.login;
  const owner = patch.owner ?? fromOwner;
  const repo = patch.repo ?? original.name;
  const toFull = `${owner}/${repo}`;

  // Rename every occurrence (full names, API and HTML URLs) consistently.
  let text = JSON.stringify(found).split(fromFull).join(toFull);
  if (owner !== fromOwner) {
    text = text
      .split(`/users/${fromOwner}`)
      .join(`/users/${owner}`)
      .split(`github.com/${fromOwner}"`)
      .join(`github.com/${owner}"`);
  }
  const payload = JSON.parse(text) as Record<string, unknown>;
  const repository = payload.repository as Record<string, unknown>;
  repository.name = repo;
  repository.full_name = toFull;
  (repository.owner as Record<string, unknown>).login = owner;

  const pr = payload.pull_request as Record<string, unknown> | undefined;
  if (pr) patchPull(payload, pr, repository, patch);
  if (name === "push") {
    const p = payload as unknown as PushEvent;
    if (patch.sha) {
      p.after = patch.sha;
      if (p.head_commit) p.head_commit.id = patch.sha;
    }
    if (patch.ref) p.ref = patch.ref;
  }
  if (name === "workflow_dispatch") {
    const p = payload as unknown as WorkflowDispatchEvent;
    if (patch.ref) p.ref = patch.ref;
    if (patch.inputs) p.inputs = patch.inputs;
  }
  return payload as unknown as PayloadOf<E>;
}

function patchPull(
  payload: Record<string, unknown>,
  pr: Record<string, unknown>,
  repository: Record<string, unknown>,
  patch: PayloadPatch,
): void {
  if (patch.number !== undefined) {
    const old = pr.number as number;
    const text = JSON.stringify(pr)
      .split(`/pulls/${old}`)
      .join(`/pulls/${patch.number}`)
      .split(`/pull/${old}`)
      .join(`/pull/${patch.number}`)
      .split(`/issues/${old}`)
      .join(`/issues/${patch.number}`);
    Object.assign(pr, JSON.parse(text));
    pr.number = patch.number;
    payload.number = patch.number;
  }
  const h = pr.head as Record<string, unknown>;
  const b = pr.base as Record<string, unknown>;
  if (patch.headSha) h.sha = patch.headSha;
  if (patch.baseSha) b.sha = patch.baseSha;
  if (patch.headRef) h.ref = patch.headRef;
  if (patch.baseRef) b.ref = patch.baseRef;
  b.repo = structuredClone(repository);
  const baseOwner = (repository.owner as { login: string }).login;
  b.label = `${baseOwner}:${String(b.ref)}`;
  if (patch.fork === null) {
    h.repo = null;
    h.label = `ghost:${String(h.ref)}`;
  } else if (patch.fork) {
    const forkFull =
      typeof patch.fork === "string" ? patch.fork : `fork-owner/${String(repository.name)}`;
    const [forkOwner = "fork-owner", forkName = String(repository.name)] = forkFull.split("/");
    const text = JSON.stringify(repository)
      .split(String(repository.full_name))
      .join(forkFull)
      .split(`/users/${baseOwner}`)
      .join(`/users/${forkOwner}`);
    const forkRepo = JSON.parse(text) as Record<string, unknown>;
    forkRepo.name = forkName;
    forkRepo.full_name = forkFull;
    forkRepo.fork = true;
    forkRepo.id = (repository.id as number) + 1;
    forkRepo.owner = { ...(repository.owner as object), login: forkOwner };
    h.repo = forkRepo;
    h.label = `${forkOwner}:${String(h.ref)}`;
    h.user = { ...(h.user as object), login: forkOwner };
  } else {
    h.repo = structuredClone(repository);
    h.label = `${baseOwner}:${String(h.ref)}`;
  }
  if (payload.action === "synchronize" && patch.headSha) payload.after = patch.headSha;
}
