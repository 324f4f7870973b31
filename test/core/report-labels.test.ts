/**
 * The report's omission labels come from one pass over the active view:
 * counted, not timed. Each message's block list is read once however many
 * archive entries there are (the old lookup read every list once per entry).
 */
import { describe, expect, it } from "vitest";
import type { ArchiveEntry } from "../../core/checkpoint.ts";
import type { Message } from "../../core/model.ts";
import { omissionRows } from "../../core/report/model.ts";

function countedView(messages: number): { active: Message[]; archive: ArchiveEntry[]; reads: () => number } {
  let reads = 0;
  const active: Message[] = [];
  const archive: ArchiveEntry[] = [];
  for (let i = 0; i < messages; i++) {
    const id = `r${i}`;
    const blocks = [{ type: "omitted" as const, recoveryId: `${id}#/blocks`, sha256: "a".repeat(64), bytes: 10, kind: "toolResult" as const, label: `result ${i}` }];
    const message = { id, role: "toolResult", meta: {} } as Message;
    Object.defineProperty(message, "blocks", { get: () => (reads++, blocks), enumerable: true });
    active.push(message);
    archive.push({ id: `${id}#/blocks`, sha256: "a".repeat(64), bytes: 10, kind: "toolResult", messageId: id, path: "/blocks", payload: [] });
  }
  // A whole-message entry has no marker: its label is its kind.
  archive.push({ id: "gone#", sha256: "b".repeat(64), bytes: 3, kind: "message", messageId: "gone", path: "", payload: {} });
  return { active, archive, reads: () => reads };
}

describe("omission labels", () => {
  it("label every entry from its marker, or its kind without one", () => {
    const { active, archive } = countedView(3);
    expect(omissionRows({ active, archive }).map((row) => row.label)).toEqual(["result 0", "result 1", "result 2", "message"]);
  });

  it.each([10, 1000])("read each of %i messages' blocks once", (messages) => {
    const view = countedView(messages);
    omissionRows(view);
    expect(view.reads()).toBe(messages);
  });
});

describe("the Markdown scorecard's file name", () => {
  it("is literal text: no tag, link, image or emphasis survives", async () => {
    const { mdLiteral, renderMarkdown } = await import("../../core/report/markdown.ts");
    const name = "<img src=x onerror=alert(1)>![i](http://x/y.png)[a](javascript:alert(1))*b*_c_|d`e`\nf.jsonl";
    const escaped = mdLiteral(name);
    expect(escaped).not.toMatch(/(^|[^\\])[<>[\]()*_|`!]/);
    expect(escaped).not.toContain("\n");
    // Removing the escapes gives the name back (line break as a space).
    expect(escaped.replace(/\\(.)/g, "$1")).toBe(name.replace("\n", " "));
    const source = { name, bytes: 1, sha256: "0".repeat(64), format: "pi", formatVersion: null, leafId: null, branchMessages: 0, toolCalls: 0, warnings: 0 };
    const heading = renderMarkdown({ source, strategies: [], checkride: [], primary: "transparent", original: [], active: [], redaction: null }).split("\n")[0];
    expect(heading).toBe(`## Compaction audit: ${escaped}`);
  });
});
