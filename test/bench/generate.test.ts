/**
 * The bench's generated sessions read as what they claim to be: the Claude
 * Code transcript (`npm run generate -- N FILE --format claude`) is a clean
 * Claude Code session whose streamed assistant lines merge and whose every
 * call has its result; both generators are deterministic and stop near
 * their target size.
 */
import { describe, expect, it } from "vitest";
import { claudeSessionLines, piSessionLines } from "../../bench/generate.ts";
import { loadSession } from "../../core/session.ts";

const text = (lines: Iterable<string>) => [...lines].join("\n") + "\n";

describe("the generated sessions", () => {
  it("the Claude Code transcript reads clean, merges its streamed lines and answers every call", () => {
    const session = loadSession(text(claudeSessionLines(300_000)));
    expect(session.format).toBe("claude");
    expect(session.warnings).toEqual([]);
    const branch = session.branch(null);
    const calls = branch.flatMap((m) => m.blocks.filter((b) => b.type === "toolCall").map((b) => (b.type === "toolCall" ? b.id : "")));
    const results = branch.filter((m) => m.role === "toolResult").map((m) => (m.meta.toolResult as { tool_use_id: string }).tool_use_id);
    expect(results).toEqual(calls);
    const merged = branch.filter((m) => m.meta.mergedUuids);
    const turns = branch.filter((m) => m.role === "user").length;
    expect(merged.length).toBe(Math.ceil(turns / 3));
  });

  it("is the same bytes each time, and about the size asked for", () => {
    for (const generate of [piSessionLines, claudeSessionLines]) {
      const first = text(generate(200_000));
      expect(text(generate(200_000))).toBe(first);
      expect(first.length).toBeGreaterThanOrEqual(200_000);
      expect(first.length).toBeLessThan(220_000);
    }
  });
});
