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

describe("the newer agents' edit and shell tools", () => {
  it("Copilot CLI's str_replace_editor writes the file it creates or edits; its view reads", () => {
    expect(modifiedPathsOf(tool("str_replace_editor", { command: "create", path: "c:\\w\\Procfile", file_text: "web: x" }))).toEqual(["c:\\w\\Procfile"]);
    expect(modifiedPathsOf(tool("str_replace_editor", { command: "view", path: "c:\\w\\app.py" }))).toEqual([]);
    expect(readPathOf(tool("str_replace_editor", { command: "view", path: "c:\\w\\app.py" }))).toBe("c:\\w\\app.py");
  });

  it("VS Code Copilot's agent mode: each replacement of a multi-replace names its file", () => {
    expect(modifiedPathsOf(tool("replace_string_in_file", { filePath: "/w/src/a.ts", oldString: "a", newString: "b" }))).toEqual(["/w/src/a.ts"]);
    expect(modifiedPathsOf(tool("insert_edit_into_file", { filePath: "/w/src/b.ts", code: "x" }))).toEqual(["/w/src/b.ts"]);
    const multi = tool("multi_replace_string_in_file", {
      explanation: "rename",
      replacements: [
        { filePath: "/w/a.ts", oldString: "x", newString: "y" },
        { filePath: "/w/b.ts", oldString: "x", newString: "y" },
        { filePath: "/w/a.ts", oldString: "p", newString: "q" },
      ],
    });
    expect(modifiedPathsOf(multi)).toEqual(["/w/a.ts", "/w/b.ts"]);
    expect(modifiedPathsOf(tool("multi_replace_string_in_file", { replacements: "not a list" }))).toEqual([]);
  });

  it("Cursor's and Kiro's: search_replace, edit_file, fsWrite, strReplace write; run_terminal_cmd and executeBash run", () => {
    expect(modifiedPathsOf(tool("search_replace", { file_path: "src/a.py", old_string: "a", new_string: "b" }))).toEqual(["src/a.py"]);
    expect(modifiedPathsOf(tool("edit_file", { target_file: "src/b.py", code_edit: "x" }))).toEqual(["src/b.py"]);
    expect(modifiedPathsOf(tool("fsWrite", { path: "README.md", text: "x" }))).toEqual(["README.md"]);
    expect(modifiedPathsOf(tool("strReplace", { path: "src/c.ts", oldStr: "a", newStr: "b" }))).toEqual(["src/c.ts"]);
    expect(commandsOf(tool("run_terminal_cmd", { command: "npm test", is_background: false }))).toEqual(["npm test"]);
    expect(commandsOf(tool("executeBash", { command: "cargo test" }))).toEqual(["cargo test"]);
  });
});
