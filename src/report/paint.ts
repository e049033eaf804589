/** Terminal styling that collapses to plain text when colour is off. */
export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export const colour: Paint = {
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
};

const id = (s: string) => s;
export const plain: Paint = { red: id, green: id, yellow: id, dim: id, bold: id };

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function paintFor(isTTY: boolean, env: NodeJS.ProcessEnv): Paint {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return plain;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return colour;
  return isTTY ? colour : plain;
}
