/** Modified files relative to where the session started, when the work was in another folder. */
import { describe, expect, it } from "vitest";
import { extractFacts, normalizePath, relativePath } from "../../../core/checkride/facts.ts";
import type { Message } from "../../../core/model.ts";

const write = (id: string, path: string): Message => ({
  id,
  role: "assistant",
  meta: {},
  blocks: [{ type: "toolCall", id: `c${id}`, name: "write", arguments: { path, content: "x" } }],
});

describe("relativePath", () => {
  it.each([
    ["/home/u/tmp", "/home/u/app/src/a.ts", "../app/src/a.ts"],
    ["/home/u/tmp/", "/home/u/tmp2/a.ts", "../tmp2/a.ts"],
    ["/w", "/w/a.ts", "a.ts"],
    ["C:/Users/v/scratch", "c:/Users/v/app/a.ts", "../app/a.ts"],
  ])("from %s to %s is %s", (from, path, expected) => {
    expect(relativePath(from, path)).toBe(expected);
  });
});

describe("a session that wrote nothing in its working directory", () => {
  it("worked in the other folder it wrote to: those files, relative to where it started (never the home folder's own or /tmp)", () => {
    const facts = extractFacts([write("1", "/home/u/app/src/a.ts"), write("2", "/tmp/dev.log"), write("3", "/home/u/.pi/settings.json")], { cwd: "/home/u/tmp" });
    expect(facts.modifiedFiles).toEqual(["../app/src/a.ts"]);
    expect(facts.fileSources["../app/src/a.ts"]).toMatchObject({ messageId: "1" });
  });

  it("a session that wrote in its working directory keeps another folder's files out, as before", () => {
    const facts = extractFacts([write("1", "/home/u/app/src/a.ts"), write("2", "/home/u/tmp/notes.md")], { cwd: "/home/u/tmp" });
    expect(facts.modifiedFiles).toEqual(["notes.md"]);
  });
});

describe("a folder moved or copied whole", () => {
  const shell = (id: string, command: string): Message => ({
    id,
    role: "assistant",
    meta: {},
    blocks: [{ type: "toolCall", id: `c${id}`, name: "bash", arguments: { command } }],
  });

  it("writes, under its new place, each file the session wrote in it before", () => {
    const facts = extractFacts(
      [
        write("1", "/w/specs/change/tasks.md"),
        write("2", "/w/specs/change/sub/spec.md"),
        write("3", "/w/specs/other.md"),
        shell("4", "mv /w/specs/change /w/specs/archive/2026-change"),
      ],
      { cwd: "/w" },
    );
    expect(facts.modifiedFiles).toEqual([
      "specs/change/tasks.md",
      "specs/change/sub/spec.md",
      "specs/other.md",
      "specs/archive/2026-change/tasks.md",
      "specs/archive/2026-change/sub/spec.md",
    ]);
    expect(facts.fileSources["specs/archive/2026-change/tasks.md"]).toMatchObject({ messageId: "4" });
  });

  it("names no file the session never wrote in it", () => {
    expect(extractFacts([shell("1", "cp -r templates out")], { cwd: "/w" }).modifiedFiles).toEqual([]);
  });
});

describe("normalizePath", () => {
  it.each([
    // Git Bash names the drive as a folder; on a Windows session it is that drive.
    ["/c/Users/Ann/book/a.svg", "C:\\Users\\Ann", "book/a.svg"],
    ["/c/Users/Ann/book/a.svg", "/home/ann", "/c/Users/Ann/book/a.svg"],
    // "~/" where the session runs in that home folder or below it; the home's own dot folders stay outside.
    ["~/book/a.md", "C:\\Users\\Ann", "book/a.md"],
    ["~/Desktop/a.pdf", "/Users/ann", "Desktop/a.pdf"],
    ["~/app/src/a.ts", "/home/ann/app", "src/a.ts"],
    ["~/.claude/plans/p.md", "/Users/ann", "~/.claude/plans/p.md"],
    ["~/notes.md", "/srv/app", "~/notes.md"],
  ])("%s in %s is %s", (path, cwd, expected) => {
    expect(normalizePath(path, cwd)).toBe(expected);
  });
});

describe("a path that climbs out of the work into a dot folder", () => {
  it("is an agent's or a tool's own state (Gemini CLI's plans under ../../../.gemini/tmp), not the work", () => {
    const facts = extractFacts([write("1", "../../../.gemini/tmp/app/plans/p.md"), write("2", "src/a.ts"), write("3", "../shared/b.ts")], { cwd: "/home/u/app" });
    expect(facts.modifiedFiles).toEqual(["src/a.ts", "../shared/b.ts"]);
  });
});
