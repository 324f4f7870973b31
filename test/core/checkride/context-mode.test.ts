/** Pi's context-mode tools: the shell commands a batch runs, each read as a run of its own. */
import { describe, expect, it } from "vitest";
import { batchSectionOutput, contextModeCommands } from "../../../core/checkride/context-mode.ts";
import { extractFacts } from "../../../core/checkride/facts.ts";
import type { Message, ToolCallBlock } from "../../../core/model.ts";

const batchCall = (commands: unknown): ToolCallBlock => ({ type: "toolCall", id: "c1", name: "ctx_batch_execute", arguments: { commands } });

/** A batch's answer as the tool writes it: the commands listed, then the sections a search matched. */
const answer = [
  "Executed 3 commands (12 lines, 0.4KB). Indexed 3 sections. Searched 1 queries.",
  "",
  "## Commands",
  "",
  "- build: `npm run build`",
  "- types: `npx tsc --noEmit 2>&1 | tail -30`",
  "- notes: `echo done > notes/status.md`",
  "",
  "## build status",
  "",
  "### types",
  "# types",
  "",
  "$ npx tsc --noEmit 2>&1 | tail -30",
  "",
  "src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
  "",
  "### notes",
  "# notes",
  "",
  "$ echo done > notes/status.md",
  "",
].join("\n");

describe("contextModeCommands", () => {
  it("reads a batch's commands with their labels, and a shell ctx_execute's code", () => {
    expect(contextModeCommands(batchCall([{ label: "t", command: "npm test" }, "git status", { command: "" }, 3]))).toEqual([
      { command: "npm test", label: "t" },
      { command: "git status" },
    ]);
    expect(contextModeCommands({ type: "toolCall", id: "c2", name: "ctx_execute", arguments: { language: "shell", code: "make check" } })).toEqual([{ command: "make check" }]);
    // Code in another language is a program over data, not a shell command.
    expect(contextModeCommands({ type: "toolCall", id: "c3", name: "ctx_execute", arguments: { language: "javascript", code: "console.log(1)" } })).toEqual([]);
  });

  it("finds a command's own section in the batch's answer, and none where the search left it out", () => {
    expect(batchSectionOutput(answer, "types")).toContain("error TS2322");
    expect(batchSectionOutput(answer, "types")).not.toContain("notes/status.md");
    expect(batchSectionOutput(answer, "build")).toBeUndefined();
  });
});

describe("a context-mode batch in the answer key", () => {
  const messages: Message[] = [
    { id: "u1", role: "user", meta: {}, blocks: [{ type: "text", text: "Fix the types." }] },
    {
      id: "a1",
      role: "assistant",
      meta: {},
      blocks: [
        batchCall([
          { label: "build", command: "npm run build" },
          { label: "types", command: "npx tsc --noEmit 2>&1 | tail -30" },
          { label: "notes", command: "echo done > notes/status.md" },
        ]),
      ],
    },
    { id: "r1", role: "toolResult", meta: { toolCallId: "c1", toolName: "ctx_batch_execute", isError: false }, blocks: [{ type: "text", text: answer }] },
  ];

  it("takes the batch's last check as the last verification, failed by its own section's output, and the file it wrote", () => {
    const facts = extractFacts(messages, { format: "pi" });
    expect(facts.lastRun).toMatchObject({ command: "npx tsc --noEmit 2>&1 | tail -30", passed: false });
    expect(facts.unresolvedError?.text).toContain("error TS2322");
    expect(facts.modifiedFiles).toEqual(["notes/status.md"]);
  });
});
