/**
 * Paths read as people write them (issue 35): every done task below is the
 * change's (the base has no tasks.md), and each names its file the way real
 * spec-kit task lists do. None is a phantom; the defect twin, a done task
 * whose file is nowhere, still blocks.
 */
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/load/index.js";
import { tempDir, writeTree } from "./helpers/tmp.js";

const TASKS = "specs/003-projects/tasks.md";

const tasksFile = (extra = "") => `# Tasks: Projects

**Input**: Design documents from \`/specs/003-projects/\`

## Phase 1: Setup

- [X] T001 [P] Create the sign-in page in src/app/(auth)/login/page.tsx
- [X] T002 [P] Create the invitations page in \`frontend/app/projects/[id]/invitations/page.tsx\`
- [X] T003 Create class-name helper in src/utils/cn.ts
- [X] T004 Wire the store in frontend/src/store/authStore.ts and api/auth.ts
- [X] T005 Add the config in \`config/app.yaml\` (or \`config/app.yml\`)
- [X] T006 Set the image's \`CMD ["/app/entrypoint.sh"]\` in docker/Dockerfile

## Phase 2: API [REPO: projects-api]

- [X] T007 Add the endpoint in services/projects/handler.go
${extra}`;

const FILES = {
  "src/app/(auth)/login/page.tsx": "",
  "frontend/app/projects/[id]/invitations/page.tsx": "",
  "frontend/admin/src/utils/cn.ts": "",
  "frontend/src/store/authStore.ts": "",
  "frontend/src/api/auth.ts": "",
  "config/app.yml": "",
  "docker/Dockerfile": "",
};

/** The change added the whole task list: every done task is its to answer for. */
const NEW = { base: { read: async () => undefined } };

async function phantoms(extra?: string) {
  const root = tempDir();
  writeTree(root, { ...FILES, [TASKS]: tasksFile(extra) });
  const c = await loadContract(root, TASKS, undefined, NEW);
  return c.problems.filter((p) => p.code === "phantom-completion");
}

describe("paths in done tasks, as spec-kit users write them", () => {
  it("route groups, dynamic segments, a sub-project's path, shorthand, alternatives, container paths, another repository: no phantom", async () => {
    expect(await phantoms()).toEqual([]);
  });

  it("defect twin: a done task whose file is nowhere still blocks", async () => {
    const found = await phantoms(
      "\n## Phase 3: Members\n\n- [X] T008 Add the members page in src/app/(auth)/members/page.tsx\n",
    );
    expect(found.map((p) => [p.severity, p.message.slice(0, 60)])).toEqual([
      ["error", "task T008 is marked done by this change, but src/app/(auth)/"],
    ]);
  });

  it("a suffix two committed files end in resolves nothing (control: ambiguity is no evidence)", async () => {
    const root = tempDir();
    writeTree(root, {
      ...FILES,
      "frontend/other/src/utils/cn.ts": "",
      [TASKS]: tasksFile(),
    });
    const c = await loadContract(root, TASKS, undefined, NEW);
    expect(c.problems.filter((p) => p.code === "phantom-completion").map((p) => p.message)).toEqual(
      [
        "task T003 is marked done by this change, but src/utils/cn.ts, named in its description, does not exist at this commit",
      ],
    );
  });
});
