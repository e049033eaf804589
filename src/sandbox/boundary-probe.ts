import type { ProcessOptions, ProcessOutcome, ProcessRunner } from "../process/run-process.js";

/**
 * A check inside the boundary must be PID 1 of its namespace, must not see
 * the gate's process, and must not be able to write outside the working tree.
 */
export async function proveBoundary(run: ProcessRunner, root: string): Promise<string | undefined> {
  // PID 1 is the check itself (a namespace per check) or its lane's executor.
  const script = `[ $$ = 1 ] || tr '\\0' ' ' < /proc/1/cmdline | grep -q '^/proc/self/fd/[0-9]* ' || { echo "PID 1 is no sandbox init: $$"; exit 1; }
[ ! -e /proc/${process.pid} ] || [ ${process.pid} -le 2 ] || { echo "the gate's PID is visible"; exit 1; }
if (: > /.contract-gate-probe) 2>/dev/null; then echo "/ is writable"; exit 1; fi
echo boundary-ok`;
  const out: ProcessOutcome = await run({
    file: "sh",
    args: ["-c", script],
    cwd: root,
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 30_000,
  } satisfies ProcessOptions);
  if (out.kind === "exited" && out.exitCode === 0 && out.stdout.includes("boundary-ok"))
    return undefined;
  if (out.kind === "boundary") return out.reason;
  return (out.stdout + out.stderrTail).trim().slice(0, 300) || out.kind;
}
