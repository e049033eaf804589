// GitHub's own workflow parser (the engine of the Actions language server), so a workflow or
// README snippet that GitHub would reject fails `npm test` instead of a user's first run.
import {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
} from "@actions/workflow-parser";

/** The parser's messages for one workflow file; empty when GitHub would accept it. */
export async function workflowErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || parsed.value === undefined) return errors.length ? errors : ["empty"];
  // Conversion adds the cross-references the schema cannot express (needs, job ids).
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (template.errors ?? []).map((e) => e.Message);
}

export interface Snippet {
  /** `FILE:LINE` of the opening fence. */
  where: string;
  text: string;
}

/** Every ```yaml / ```yml block of a markdown file. */
export function yamlSnippets(file: string, markdown: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    out.push({ where: `${file}:${start + 1}`, text: `${body.join("\n")}\n` });
  }
  return out;
}

/**
 * A snippet as the workflow GitHub would see: a whole workflow as it is; a list of steps
 * (a fragment to paste into a job) inside a minimal job; anything else is undefined, so a
 * yaml block that is neither cannot slip past the parser unnoticed.
 */
export function asWorkflow(text: string): string | undefined {
  const code = text.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  if (code.some((l) => /^jobs:/.test(l))) return text;
  const first = code[0];
  if (first === undefined || !/^\s*- /.test(first)) return undefined;
  const indent = first.length - first.trimStart().length;
  const steps = text
    .split("\n")
    .map((l) =>
      l.trim() === "" ? "" : `      ${l.slice(Math.min(indent, l.length - l.trimStart().length))}`,
    )
    .join("\n");
  return `on: push\njobs:\n  snippet:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n`;
}
