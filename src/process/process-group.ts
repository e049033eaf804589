import { spawn } from "node:child_process";

/**
 * Process-group signalling. Every child runs as the leader of its own group
 * (`detached: true`), so one signal to `-pid` reaches everything it started
 * that did not deliberately leave the group: a check's background jobs,
 * `npm` → `node` chains, test-runner workers.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === "win32") {
    // No process groups: taskkill /T walks the tree instead (always forceful).
    const killer = spawn("taskkill", ["/pid", String(pid), "/T", "/F"], {
      stdio: "ignore",
      windowsHide: true,
    });
    killer.on("error", () => {});
    killer.unref();
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty. Nothing else can fail for our own children.
  }
}

/** Live runs by group id, each with a function that aborts it with SIGKILL. */
const live = new Map<number, () => void>();

export function registerGroup(pid: number, abort: () => void): void {
  live.set(pid, abort);
}

export function unregisterGroup(pid: number): void {
  live.delete(pid);
}

/**
 * Kills every running check's process group at once (the Ctrl-C path). Each
 * affected run settles as `aborted`. Returns how many groups were signalled.
 */
export function killAllRunning(): number {
  const aborts = [...live.values()];
  for (const abort of aborts) abort();
  return aborts.length;
}
