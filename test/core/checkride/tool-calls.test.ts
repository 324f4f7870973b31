/** What a tool call did, whatever the harness calls the tool: Zed's Claude Code adapter serves the built-in tools under `mcp__acp__`. */
import { describe, expect, it } from "vitest";
import { baseToolName, commandsOf, modifiedPathsOf, readPathOf } from "../../../core/checkride/tool-calls.ts";
import type { ToolCallBlock } from "../../../core/model.ts";

const tool = (name: string, args: unknown): ToolCallBlock => ({ type: "toolCall", id: "c1", name, arguments: args });

describe("a tool served by Zed's Claude Code adapter (claude-code-acp)", () => {
  it("is the built-in tool it stands for", () => {
    expect(baseToolName("mcp__acp__Edit")).toBe("edit");
    expect(baseToolName("Bash")).toBe("bash");
    expect(modifiedPathsOf(tool("mcp__acp__Edit", { file_path: "/w/docs/a.md", old_string: "a", new_string: "b" }))).toEqual(["/w/docs/a.md"]);
    expect(modifiedPathsOf(tool("mcp__acp__Write", { file_path: "/w/b.md", content: "x" }))).toEqual(["/w/b.md"]);
    expect(commandsOf(tool("mcp__acp__Bash", { command: "cd /w && git add a.md" }))).toEqual(["cd /w && git add a.md"]);
    expect(readPathOf(tool("mcp__acp__Read", { file_path: "/w/a.md" }))).toBe("/w/a.md");
  });

  it("another MCP server's tool of the same name is not taken for it", () => {
    expect(modifiedPathsOf(tool("mcp__notes__write", { path: "/w/a.md" }))).toEqual([]);
    expect(commandsOf(tool("mcp__remote__bash", { command: "rm -rf build" }))).toEqual([]);
  });
});
