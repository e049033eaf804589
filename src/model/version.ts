// package.json's version, bundled into dist/cli by ncc at build time: a release
// bump reaches `--version` with no second copy of the number to forget, and the
// bundle reads no package.json at run time (npm may install it anywhere).
import packageJson from "../../package.json" with { type: "json" };

/** The version of this build, as package.json declared it when it was bundled. */
export const VERSION: string = packageJson.version;
