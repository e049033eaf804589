// The lane executor outside the gate, for bench/sandbox.mjs's layer table:
// compiled from the source the bundles carry, and driven by a Node loop the
// way the sandbox host drives it (one executor per lane, PID 1 of its own
// PID and mount namespaces, no cgroups, no view).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = new URL("../src/sandbox/lane-executor.c", import.meta.url);

/** The compiled executor's path in `dir`, or `undefined` without `cc`. */
export function compileLaneExecutor(dir) {
  const src = fileURLToPath(SOURCE);
  const out = join(dir, "lane-executor");
  try {
    execFileSync("cc", ["-O2", "-o", out, src], { stdio: "ignore" });
    return out;
  } catch {
    return undefined;
  }
}

/** A Node module running `count` × `true` through `parallel` lane executors. */
export function laneLoopSource(count, parallel, executor) {
  return `
import { spawn } from "node:child_process";
const frame = (fields) => {
  const payload = Buffer.from(fields.map((f) => f + "\\0").join(""));
  const head = Buffer.alloc(5); head.write("R", 0); head.writeUInt32LE(payload.length, 1);
  return Buffer.concat([head, payload]);
};
const request = frame(["/", "/bin/true", "0", "1", "true", "1", "PATH=/usr/bin:/bin"]);
let next = 0;
const lane = () => new Promise((resolve, reject) => {
  const child = spawn("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", "--", ${JSON.stringify(executor)}, "0", "0", "0", "p"], { stdio: ["pipe", "pipe", "inherit"] });
  let buf = Buffer.alloc(0);
  const go = () => { if (next < ${count}) { next++; child.stdin.write(request); } else { child.stdin.end(); resolve(); } };
  child.stdout.on("data", (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 5) {
      const len = buf.readUInt32LE(1);
      if (buf.length < 5 + len) return;
      const type = String.fromCharCode(buf[0]); const data = buf.subarray(5, 5 + len).toString();
      buf = buf.subarray(5 + len);
      if (type === "Y") go();
      else if (type === "X") { if (data !== "0 -1") reject(new Error("exit " + data)); else go(); }
      else if (type !== "O" && type !== "E") reject(new Error(type + " " + data));
    }
  });
  child.on("error", reject);
});
await Promise.all(Array.from({ length: ${parallel} }, lane));
`;
}
