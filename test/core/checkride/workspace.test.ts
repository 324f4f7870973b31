/** Where a session worked when its file does not say (VS Code's Copilot agent): the deepest folder holding every file its tools touched. */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { inferredWorkspace } from "../../../core/checkride/workspace.ts";
import type { Message } from "../../../core/model.ts";

const tool = (id: string, name: string, args: unknown): Message => ({ id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `c${id}`, name, arguments: args }] });

describe("inferredWorkspace", () => {
  it("is the deepest folder holding every file read or written, Windows paths in any case", () => {
    const branch = [
      tool("1", "read_file", { filePath: "D:\\Codes\\App\\web\\README.md" }),
      tool("2", "read_file", { filePath: "d:/codes/app/tests/test_a.py" }),
      tool("3", "create_file", { filePath: "D:\\Codes\\App\\temp.md", content: "x" }),
    ];
    expect(inferredWorkspace(branch)).toBe("D:/Codes/App");
    expect(extractFacts(branch).modifiedFiles).toEqual(["temp.md"]);
  });

  it("a folder viewed (Copilot CLI's view of the project itself) is a folder, not a file of its parent", () => {
    const branch = [
      tool("1", "str_replace_editor", { command: "view", path: "c:\\Users\\e\\HAWZX\\HAWZX-AI" }),
      tool("2", "str_replace_editor", { command: "create", path: "c:\\Users\\e\\HAWZX\\HAWZX-AI\\Procfile", file_text: "web: x" }),
    ];
    expect(inferredWorkspace(branch)).toBe("c:/Users/e/HAWZX/HAWZX-AI");
    expect(extractFacts(branch).modifiedFiles).toEqual(["Procfile"]);
  });

  it("where a file is named both ways (read as src/main.ts, written as /w/app/src/main.ts), its relative name's base", () => {
    const branch = [tool("1", "read_file", { file_path: "src/main.ts" }), tool("2", "write_file", { file_path: "/w/app/src/main.ts", content: "x" })];
    expect(inferredWorkspace(branch)).toBe("/w/app");
    expect(extractFacts(branch).modifiedFiles).toEqual(["src/main.ts"]);
  });

  it("names none when the tools touched no absolute path, or only the home folder's own files and the system's, or share only a drive or a home folder", () => {
    expect(inferredWorkspace([tool("1", "write", { path: "src/a.ts" })])).toBeUndefined();
    expect(inferredWorkspace([tool("1", "write", { path: "/tmp/a.log" }), tool("2", "write", { path: "/home/ana/.pi/settings.json" })])).toBeUndefined();
    expect(inferredWorkspace([tool("1", "write", { path: "D:/a/x.ts" }), tool("2", "write", { path: "D:/b/y.ts" })])).toBeUndefined();
    expect(inferredWorkspace([tool("1", "write", { path: "/home/ana/a/x.ts" }), tool("2", "write", { path: "/home/ana/b/y.ts" })])).toBeUndefined();
  });

  it("never overrides the working directory the file records", () => {
    const branch = [tool("1", "write", { path: "/w/app/src/a.ts" }), tool("2", "write", { path: "/w/app/src/b.ts" })];
    expect(extractFacts(branch, { cwd: "/w/app" }).modifiedFiles).toEqual(["src/a.ts", "src/b.ts"]);
    expect(extractFacts(branch).modifiedFiles).toEqual(["a.ts", "b.ts"]);
  });
});
