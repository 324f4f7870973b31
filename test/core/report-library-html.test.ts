/** The library's HTML report: figures by default, fact texts only when asked, everything escaped, no script. */
import { describe, expect, it } from "vitest";
import type { LibraryCompactionRow, LibrarySessionRow, LibrarySkippedRow } from "../../core/library/rows.ts";
import { libraryReportHtml } from "../../core/report/library-html.ts";

function session(path: string, agent: string, factsDropped: number, extra: Partial<LibrarySessionRow> = {}): LibrarySessionRow {
  return {
    kind: "session",
    path,
    agent,
    format: agent,
    project: "proj",
    date: "2026-11-02T10:00:00.000Z",
    dateFrom: "records",
    lastDate: "2026-11-02T11:00:00.000Z",
    durationMs: 3_600_000,
    model: "model-x",
    bytes: 2_500_000,
    files: 1,
    messages: 120,
    tokens: 40_000,
    tokenizer: "the file's own usage record of the last turn",
    compactions: 1,
    worstCompaction: { index: 1, asked: 4, recorded: 4 - factsDropped, transparent: 4 },
    factsDropped,
    warnings: 0,
    ...extra,
  };
}

function compaction(path: string, dropped: { probe: string; fact: string }[]): LibraryCompactionRow {
  return {
    kind: "compaction",
    path,
    compactionKind: "claude-compact",
    index: 1,
    line: 42,
    entryId: "e1",
    trigger: "auto",
    tokensBefore: 160_000,
    tokensAfter: null,
    messagesBefore: 100,
    messagesAfter: 3,
    facts: { asked: 4, recorded: 4 - dropped.length, transparent: 4, kept: 4 - dropped.length, fellOut: dropped.length, goneBefore: 0 },
    factFates: dropped.map((f) => ({ probe: f.probe, fate: "fell-out" as const, missingItems: [], items: 1 })),
    dropped: { facts: dropped.map((f) => ({ ...f, missingItems: [] })), humanMessages: [], toolOutputs: [] },
  };
}

const secretFact = { probe: "files", fact: "src/payments/<refund>.ts" };
const sessions = [session("a/quiet.jsonl", "pi", 0), session("b/<b>loud</b>.jsonl", "claude", 1)];
const compactions = [compaction("a/quiet.jsonl", []), compaction("b/<b>loud</b>.jsonl", [secretFact])];
const skipped: LibrarySkippedRow[] = [{ kind: "skipped", path: "notes.md", reason: "not a session file (.md)" }];

describe("libraryReportHtml", () => {
  const page = libraryReportHtml({ folder: "projects", sessions, compactions, skipped, withFacts: false });

  it("holds figures only unless the fact texts are asked for", () => {
    expect(page).not.toContain("refund");
    expect(page).toContain("dropped: 1 fact(s), 0 user message(s), 0 tool output(s)");
    const withFacts = libraryReportHtml({ folder: "projects", sessions, compactions, skipped, withFacts: true });
    expect(withFacts).toContain("src/payments/&lt;refund&gt;.ts");
  });

  it("escapes every path and carries no script (its policy allows none)", () => {
    expect(page).toContain("b/&lt;b&gt;loud&lt;/b&gt;.jsonl");
    expect(page).not.toMatch(/<script/i);
    expect(page).toMatch(/Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);
  });

  it("lists the sessions most facts dropped first, each with its compactions, the per-agent summary and what was skipped", () => {
    expect(page.indexOf("loud")).toBeLessThan(page.indexOf("quiet.jsonl"));
    expect(page).toContain("#1 compact (summary) (auto)");
    expect(page).toContain("file's tokens 160,000 → –");
    expect(page).toContain("facts present after it: 3/4 (transparent 4/4)");
    expect(page).toMatch(/<tr><th>claude<\/th><td class="num">1<\/td><td class="num">1<\/td><td class="num">75%<\/td><td class="num">100%<\/td>/);
    expect(page).toContain("not a session file (.md)");
    expect(page).toContain("2 sessions (5.0 MB), 2 recorded compactions, 1 files skipped");
  });

  it("says so where an agent's sessions record no compaction", () => {
    const none = libraryReportHtml({
      folder: "x",
      sessions: [session("c.json", "gemini", 0, { compactions: 0, worstCompaction: null })],
      compactions: [],
      skipped: [],
      withFacts: false,
    });
    expect(none).toMatch(/<tr><th>gemini<\/th><td class="num">1<\/td><td class="num">0<\/td><td class="num">—<\/td><td class="num">—<\/td>/);
    expect(none).not.toContain("<h2>Skipped</h2>");
  });
});
