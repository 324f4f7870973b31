/**
 * Recorded compactions on real sessions: as many as the file records (counted
 * here independently, from the raw lines), the file's own token figures,
 * each `before` starting from the previous `after`, and the recorded context
 * equal to the last `after` plus everything after it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Message, RecordedCompaction } from "../../../core/model.ts";
import { copyKey } from "../../../core/same-message.ts";
import { loadSession } from "../../../core/session.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../../helpers/fixtures.ts";

type Raw = Record<string, any>;

function rawLines(relative: string): { line: number; value: Raw }[] {
  return readFileSync(fixturePath(relative), "utf8")
    .split("\n")
    .map((text, i) => ({ line: i + 1, text }))
    .filter(({ text }) => text.trim() !== "")
    .map(({ line, text }) => ({ line, value: JSON.parse(text) as Raw }));
}

/** Compaction records in the raw file, by format, independent of the readers. */
function rawCompactionLines(relative: string): number[] {
  const lines = rawLines(relative);
  if (relative.startsWith("pi/") || relative.includes("pi-v"))
    return lines.filter(({ value }) => value.type === "compaction" || value.type === "branch_summary").map(({ line }) => line);
  if (relative.startsWith("claude/"))
    return lines.filter(({ value }) => value.type === "system" && (value.subtype === "compact_boundary" || value.subtype === "microcompact_boundary")).map(({ line }) => line);
  return lines.filter(({ value }) => value.type === "compacted" || value.payload?.type === "thread_rolled_back").map(({ line }) => line);
}

const FIXTURES = [
  "pi/badlogic__pi-mono__before-compaction.jsonl",
  "pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl",
  "pi/JohnnyLai92__pi-mono__6edf3497.jsonl",
  "composed/pi-v3-tree.jsonl",
  "claude/entireio__cli__d0-161e0df1cb.jsonl",
  "claude/entireio__cli__f9-f6f611b469.jsonl",
  "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl",
  "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl",
  "codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl",
  "composed/codex-modern-compacted.jsonl",
];

const ids = (messages: readonly Message[]) => messages.map((m) => m.id);

describeWithFixtures("recorded compactions on real sessions", () =>
  describe.each(FIXTURES)("recorded compactions: %s", (relative) => {
    const session = loadSession(readFixture(relative));
    const compactions = session.recordedCompactions(null);
    const branch = session.branch(null);

    it("lists exactly the compaction records on the branch, in file order, numbered from 1", () => {
      expect(compactions.map((c) => c.line)).toEqual(rawCompactionLines(relative));
      expect(compactions.map((c) => c.index)).toEqual(compactions.map((_, i) => i + 1));
    });

    it("starts each compaction's before from the previous one's after, and the first from the branch's start", () => {
      compactions.forEach((compaction, i) => {
        const previousAfter = i === 0 ? [] : compactions[i - 1]!.after;
        expect(ids(compaction.before.slice(0, previousAfter.length))).toEqual(ids(previousAfter));
        // What is added between two compactions comes from the branch, before this compaction's line.
        for (const message of compaction.before.slice(previousAfter.length)) expect(message.line! < compaction.line).toBe(true);
      });
      if (compactions[0]) expect(ids(compactions[0].before)).toEqual(ids(branch.filter((m) => m.line! < compactions[0]!.line && m.role !== "summary")));
    });

    it("derives the recorded context from the last compaction's after plus what follows", () => {
      const recorded = session.recordedContext(null);
      const last = compactions[compactions.length - 1];
      const head = last ? last.after : [];
      expect(ids(recorded.messages.slice(0, head.length))).toEqual(ids(head));
      for (const message of recorded.messages.slice(head.length)) expect(message.line! > (last?.line ?? 0)).toBe(true);
      // Dropped ids are exactly the branch messages the final context does not send.
      const sent = new Set(ids(recorded.messages));
      expect(recorded.droppedMessageIds).toEqual(ids(branch.filter((m) => !sent.has(m.id))));
    });

    it("names dropped messages that were in before and are not in after, by id or as a verbatim copy", () => {
      for (const c of compactions) {
        const after = new Set(ids(c.after));
        const dropped = new Set(c.droppedMessageIds);
        const notById = c.before.filter((m) => !after.has(m.id));
        expect(c.droppedMessageIds).toEqual(ids(notById.filter((m) => dropped.has(m.id))));
        // What is not in after by id and still counts as kept stands there as a copy under a new id.
        const copies = new Set(c.after.filter((m) => !c.before.some((b) => b.id === m.id)).map(copyKey));
        for (const kept of notById.filter((m) => !dropped.has(m.id))) expect(copies.has(copyKey(kept)), kept.id).toBe(true);
      }
    });
  }),
);

function only(relative: string): RecordedCompaction[] {
  return loadSession(readFixture(relative)).recordedCompactions(null);
}

describeWithFixtures("the file's own figures", () => {
  it("Pi: tokensBefore from each compaction entry, no trigger, the summary text", () => {
    for (const relative of ["pi/badlogic__pi-mono__before-compaction.jsonl", "pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl"]) {
      const raw = new Map(rawLines(relative).map(({ line, value }) => [line, value]));
      const compactions = only(relative);
      expect(compactions.length).toBeGreaterThan(0);
      for (const c of compactions) {
        expect(c.kind).toBe("pi-compaction");
        expect(c.tokensBefore).toBe(raw.get(c.line)!.tokensBefore);
        expect(c.tokensAfter).toBeNull();
        expect(c.trigger).toBeNull();
        expect(c.summary).toBe(raw.get(c.line)!.summary);
        // Pi's after opens with the summary.
        expect(c.after[0]!.role).toBe("summary");
      }
    }
  });

  it("Claude Code: a compact boundary's trigger and preTokens, the summary from the next isCompactSummary line", () => {
    const relative = "claude/entireio__cli__d0-161e0df1cb.jsonl";
    const lines = rawLines(relative);
    const [c] = only(relative);
    const boundary = lines.find(({ line }) => line === c!.line)!.value;
    const summaryLine = lines.find(({ line, value }) => line > c!.line && value.isCompactSummary === true)!;
    expect(c!.kind).toBe("claude-compact");
    expect(c!.trigger).toBe(boundary.compactMetadata.trigger);
    expect(c!.tokensBefore).toBe(boundary.compactMetadata.preTokens);
    expect(c!.tokensAfter).toBeNull();
    expect(c!.summary).toBe(summaryLine.value.message.content);
    expect(ids(c!.after)).toEqual([summaryLine.value.uuid]);
    expect(c!.entryId).toBe(boundary.uuid);
    expect(c!.timestamp).toBe(boundary.timestamp);
  });

  it("Claude Code: a microcompact clears the named tool results in place, with preTokens and preTokens − tokensSaved", () => {
    const relative = "claude/entireio__cli__f9-f6f611b469.jsonl";
    const lines = rawLines(relative);
    const [micro, compact] = only(relative);
    const meta = lines.find(({ line }) => line === micro!.line)!.value.microcompactMetadata;
    expect(micro!.kind).toBe("claude-microcompact");
    expect(micro!.summary).toBeNull();
    expect(micro!.tokensBefore).toBe(meta.preTokens);
    expect(micro!.tokensAfter).toBe(meta.preTokens - meta.tokensSaved);
    expect(micro!.droppedMessageIds).toEqual([]);
    expect(ids(micro!.after)).toEqual(ids(micro!.before));
    const clearedIds = new Set<string>(meta.compactedToolIds);
    const cleared = micro!.after.filter((m) => m.role === "toolResult" && clearedIds.has((m.meta.toolResult as { tool_use_id: string }).tool_use_id));
    // Every named result on the branch is cleared (some may be named twice or off the branch).
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared.length).toBeLessThanOrEqual(clearedIds.size);
    for (const m of cleared) expect(m.blocks).toEqual([{ type: "text", text: "[Old tool result content cleared]" }]);
    const untouched = micro!.after.filter((m, i) => m === micro!.before[i]);
    expect(untouched.length).toBe(micro!.after.length - cleared.length);
    expect(compact!.kind).toBe("claude-compact");
    expect(compact!.before.length).toBeGreaterThanOrEqual(micro!.after.length);
  });

  it("Codex: each compacted record's replacement history is the after, with window numbers, opaque items by size and token_count figures", () => {
    const relative = "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl";
    const lines = rawLines(relative);
    const compactions = only(relative);
    expect(compactions.map((c) => c.windowNumber)).toEqual([1, 2]);
    for (const c of compactions) {
      const record = lines.find(({ line }) => line === c.line)!.value;
      expect(c.kind).toBe("codex-compacted");
      expect(c.after.length).toBe(record.payload.replacement_history.length);
      const tokenCounts = lines.filter(({ value }) => value.payload?.type === "token_count");
      const before = tokenCounts.filter(({ line }) => line < c.line).pop()!;
      const after = tokenCounts.find(({ line }) => line > c.line)!;
      expect(c.tokensBefore).toBe(before.value.payload.info.last_token_usage.total_tokens);
      expect(c.tokensAfter).toBe(after.value.payload.info.last_token_usage.total_tokens);
      const encrypted = record.payload.replacement_history.filter((item: Raw) => item.type === "compaction").map((item: Raw) => Buffer.byteLength(item.encrypted_content));
      expect(c.opaqueBytes).toBe(encrypted.reduce((a: number, b: number) => a + b, 0));
      expect(c.summary).toBeNull();
    }
  });
});
