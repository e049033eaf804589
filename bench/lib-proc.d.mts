// Types of what the TypeScript benches (run through tsx) use of lib-proc.mjs.
/** `sha256:…` of a plan file's text, as `source_plan_hash` expects. */
export function planHash(text: string): string;
/** A plan contract whose tasks all run in wave 1: `verifications[t]` is task T(t+1)'s list. */
export function planContract(phase: number, hash: string, verifications: unknown[][]): string;
export function commitRepo(root: string): void;
