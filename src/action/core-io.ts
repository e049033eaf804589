import { randomBytes } from "node:crypto";
import { EOL } from "node:os";
import * as core from "@actions/core";
import type { ActionIO } from "./io.js";
import type { PostIO } from "./post.js";

/** The one place that talks to the runner through @actions/core. */
export function coreIO(): ActionIO {
  return {
    getInput: (name) => core.getInput(name),
    setOutput: (name, value) => core.setOutput(name, String(value)),
    setFailed: (message) => core.setFailed(message),
    info: (message) => core.info(message),
    debug: (message) => core.debug(message),
    notice: (message) => core.notice(message),
    warning: (message) => core.warning(message),
    errorAt: (message, at) =>
      core.error(message, { file: at.file, startLine: at.line, title: at.title }),
    setSecret: (value) => core.setSecret(value),
    writeSummary: async (markdown) => {
      await core.summary.addRaw(markdown, true).write();
    },
    saveState: (name, value) => core.saveState(name, value),
    untrusted: (text) => {
      // Between stop-commands and a fresh random token, nothing a contract or a
      // command printed can be read as a workflow command (::set-output, ::add-mask, ...).
      const token = randomBytes(16).toString("hex");
      // One write for the whole block (a report has a line per check): the same bytes as line by line.
      const lines = [
        `::stop-commands::${token}`,
        ...text.replace(/\n$/, "").split("\n"),
        `::${token}::`,
      ];
      core.info(lines.join(EOL));
    },
  };
}

export function corePostIO(): PostIO {
  return {
    getInput: (name) => core.getInput(name),
    getState: (name) => core.getState(name),
    info: (message) => core.info(message),
    warning: (message) => core.warning(message),
  };
}

/** actions/checkout's idiom: the main step marks the state, so the post step knows it is the post step. */
export function isPostStep(): boolean {
  return core.getState("isPost") === "true";
}

export function markMainStep(): void {
  core.saveState("isPost", "true");
}
