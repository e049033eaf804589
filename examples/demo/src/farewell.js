// Phase 2 is half-built: farewell() exists but the CLI entry point does not.
export function farewell(name) {
  return `Goodbye, ${name}.`;
}
