/**
 * The file's own usage series, checked on every real fixture against an
 * independent read of the raw lines written here (JSON.parse per line, no
 * reader code), and the rules labelled on composed records.
 */
import { describeWithFixtures } from "../../helpers/fixtures.ts";
import { describe, expect, it } from "vitest";
import type { UsageTurn } from "../../../core/model.ts";
import { loadSession } from "../../../core/session.ts";
import { contextAtTurn } from "../../../core/usage/turn-context.ts";
import { usageAgainstView } from "../../../core/usage/summary.ts";
import { contextTokens, loadTokenizer } from "../../../core/tokens.ts";
import { fixturesByLoadability } from "../../helpers/loadable.ts";

// The o200k table is imported on first need (core/tokens.ts); these tests count with it.
await loadTokenizer();

type Raw = Record<string, any>;
const rawLines = (bytes: Uint8Array): { line: number; value: Raw }[] =>
  new TextDecoder()
    .decode(bytes)
    .split("\n")
    .map((text, i) => ({ line: i + 1, text }))
    .filter((l) => l.text.trim() !== "")
    .map((l) => ({ line: l.line, value: JSON.parse(l.text) as Raw }));

const n = (v: unknown) => (typeof v === "number" ? v : 0);
type Figures = Omit<UsageTurn, "messageId">;

/** Claude Code: assistant lines on the branch, one turn per message.id (last non-zero line's figures), all-zero ones out. */
function claudeByHand(bytes: Uint8Array, onBranch: Set<string>): Figures[] {
  const turns: Figures[] = [];
  const byApiId = new Map<string, Figures>();
  for (const { line, value } of rawLines(bytes)) {
    const usage = value.message?.usage;
    if (value.type !== "assistant" || !usage || !onBranch.has(value.uuid)) continue;
    const f = { line, input: n(usage.input_tokens), output: n(usage.output_tokens), cacheRead: n(usage.cache_read_input_tokens), cacheWrite: n(usage.cache_creation_input_tokens) };
    const turn = { ...f, contextTokens: f.input + f.cacheRead + f.cacheWrite };
    const zero = f.input + f.output + f.cacheRead + f.cacheWrite === 0;
    const earlier = byApiId.get(value.message.id);
    if (earlier) {
      if (!zero) Object.assign(earlier, turn);
    } else if (!zero) {
      byApiId.set(value.message.id, turn);
      turns.push(turn);
    }
  }
  return turns;
}

/** Codex: token_count events with last_token_usage; cached tokens are inside input_tokens; a repeated running total is one event. */
function codexByHand(bytes: Uint8Array): { turns: Figures[]; window: number | null } {
  const turns: Figures[] = [];
  let window: number | null = null;
  let previous = "";
  for (const { line, value } of rawLines(bytes)) {
    const info = value.type === "event_msg" && value.payload?.type === "token_count" ? value.payload.info : null;
    if (!info) continue;
    if (typeof info.model_context_window === "number") window = info.model_context_window;
    const last = info.last_token_usage;
    if (!last || JSON.stringify(info.total_token_usage ?? null) === previous) continue;
    previous = JSON.stringify(info.total_token_usage ?? null);
    turns.push({
      line,
      input: last.input_tokens - last.cached_input_tokens,
      cacheRead: last.cached_input_tokens,
      cacheWrite: 0,
      output: last.output_tokens,
      contextTokens: last.input_tokens,
    });
  }
  return { turns, window };
}

/** Pi: assistant messages on the branch with non-zero usage; context = input + cacheRead + cacheWrite. */
function piByHand(bytes: Uint8Array, onBranch: Set<string>): Figures[] {
  const turns: Figures[] = [];
  for (const { line, value } of rawLines(bytes)) {
    const m = value.message;
    const id = typeof value.id === "string" ? value.id : `L${line}`;
    if (value.type !== "message" || m?.role !== "assistant" || !m.usage || !onBranch.has(id)) continue;
    const f = { input: n(m.usage.input), output: n(m.usage.output), cacheRead: n(m.usage.cacheRead), cacheWrite: n(m.usage.cacheWrite) };
    if (f.input + f.output + f.cacheRead + f.cacheWrite === 0) continue;
    turns.push({ line, ...f, contextTokens: f.input + f.cacheRead + f.cacheWrite });
  }
  return turns;
}

const withoutIds = (turns: UsageTurn[]): Figures[] => turns.map(({ messageId: _id, ...rest }) => rest);

describeWithFixtures("on every real fixture, the usage series equals an independent read of the file", () => {
  const { loaded } = fixturesByLoadability();
  it.each(loaded.map((f) => [f.name, f] as const))("%s", (_name, { bytes, session }) => {
    const series = session.usage(null);
    const onBranch = new Set(session.path(null).map((entry) => entry.id));
    if (session.format === "claude") {
      expect(withoutIds(series.turns)).toEqual(claudeByHand(bytes, onBranch));
      expect(series.contextWindow).toBeNull();
    } else if (session.format === "codex") {
      const byHand = codexByHand(bytes);
      expect(withoutIds(series.turns)).toEqual(byHand.turns);
      expect(series.contextWindow).toBe(byHand.window);
    } else if (session.format === "pi") {
      expect(withoutIds(series.turns)).toEqual(piByHand(bytes, onBranch));
    } else if (session.format === "openai" || session.format === "anthropic") {
      // Message arrays record no usage.
      expect(series.turns).toEqual([]);
    } else {
      // The newer formats' series come with their readers (#18), tested there; here, only that they are well formed.
      let previousLine = 0;
      for (const turn of series.turns) {
        for (const value of [turn.input, turn.output, turn.cacheRead, turn.cacheWrite, turn.contextTokens]) expect(Number.isFinite(value) && value >= 0).toBe(true);
        expect(turn.line).toBeGreaterThanOrEqual(previousLine);
        previousLine = turn.line;
      }
    }
  });

  it("the real files say what they are: figures known by hand for three of them", () => {
    const claude = loaded.find((f) => f.name === "claude/entireio__cli__d0-161e0df1cb.jsonl")!.session.usage(null);
    expect(claude.turns.at(-1)).toMatchObject({ line: 901, input: 1, output: 1, cacheRead: 68490, cacheWrite: 602, contextTokens: 69093 });
    expect(claude.notes.join(" ")).toMatch(/streamed lines repeat/);
    expect(claude.notes.join(" ")).toMatch(/1 assistant message records all-zero usage/);
    const codex = loaded.find((f) => f.name.startsWith("codex/EntityProcess"))!.session.usage(null);
    expect(codex.contextWindow).toBe(121600);
    expect(codex.turns.at(-1)).toMatchObject({ line: 861, input: 220, cacheRead: 95872, output: 1905, contextTokens: 96092 });
    expect(codex.notes.join(" ")).toMatch(/3 token_count events repeat/);
    const pi = loaded.find((f) => f.name === "pi/badlogic__pi-mono__before-compaction.jsonl")!.session.usage(null);
    expect(pi.notes.join(" ")).toMatch(/13 assistant messages record all-zero usage/);
  });
});

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("usage rules on composed records", () => {
  it("Claude Code: streamed lines sharing message.id are one turn; a resumed message's zeroed usage is left out and noted", () => {
    const base = { sessionId: "s", cwd: "/w", version: "2.1.33", timestamp: "2026-01-01T00:00:00Z" };
    const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 10 });
    const session = loadSession(
      jsonl([
        { ...base, type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "go" } },
        { ...base, type: "assistant", uuid: "a1", parentUuid: "u1", message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "a" }], usage: usage(5, 1) } },
        { ...base, type: "assistant", uuid: "a2", parentUuid: "a1", message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "b" }], usage: usage(5, 40) } },
        {
          ...base,
          type: "assistant",
          uuid: "a3",
          parentUuid: "a2",
          message: {
            id: "msg_0",
            role: "assistant",
            content: [{ type: "text", text: "old" }],
            usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
          },
        },
      ]),
    );
    const series = session.usage(null);
    expect(series.turns).toEqual([{ line: 3, messageId: "a1", input: 5, output: 40, cacheRead: 100, cacheWrite: 10, contextTokens: 115 }]);
    expect(series.notes).toHaveLength(2);
  });

  it("the context read on a turn: the recorded context just before the turn's message, or before the response preceding a Codex record", () => {
    const pi = loadSession(
      jsonl([
        { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" },
        { type: "message", id: "q1", parentId: null, message: { role: "user", content: "first" } },
        {
          type: "message",
          id: "r1",
          parentId: "q1",
          message: { role: "assistant", content: [{ type: "text", text: "one" }], usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 } },
        },
        { type: "message", id: "q2", parentId: "r1", message: { role: "user", content: "second" } },
        {
          type: "message",
          id: "r2",
          parentId: "q2",
          message: { role: "assistant", content: [{ type: "text", text: "two" }], usage: { input: 20, output: 1, cacheRead: 0, cacheWrite: 0 } },
        },
      ]),
    );
    const [first, second] = pi.usage(null).turns;
    expect(contextAtTurn(pi, first!).map((m) => m.id)).toEqual(["q1"]);
    expect(contextAtTurn(pi, second!).map((m) => m.id)).toEqual(["q1", "r1", "q2"]);
    const item = (type: string, payload: Record<string, unknown>) => ({ timestamp: "2026-01-01T00:00:00Z", type, payload });
    const codex = loadSession(
      jsonl([
        item("session_meta", { id: "s", cwd: "/w", cli_version: "0.142.2" }),
        item("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }),
        item("response_item", { type: "reasoning", summary: [], encrypted_content: "xyz" }),
        item("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] }),
        item("response_item", { type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c1" }),
        // Codex 0.142 writes the call's tool output before its token_count: not part of the call's input.
        item("response_item", { type: "function_call_output", call_id: "c1", output: "a.ts" }),
        item("event_msg", {
          type: "token_count",
          info: { last_token_usage: { input_tokens: 50, cached_input_tokens: 10, output_tokens: 5 }, total_token_usage: { total_tokens: 55 }, model_context_window: 1000 },
        }),
      ]),
    );
    const [turn] = codex.usage(null).turns;
    expect(turn).toMatchObject({ line: 7, input: 40, cacheRead: 10, contextTokens: 50 });
    expect(contextAtTurn(codex, turn!).map((m) => m.id)).toEqual(["L2"]);
  });
});

describeWithFixtures("on every real session with recorded usage, the model's view of what was read is at most what the file says was read", () => {
  // The formats whose usage readers live here; the newer formats' figures are their readers' to check (#18).
  const OWN = new Set(["pi", "claude", "codex"]);
  const real = fixturesByLoadability().loaded.filter((f) => !f.name.startsWith("composed/") && OWN.has(f.session.format) && f.session.usage(null).turns.length > 0);
  it.each(real.map((f) => [f.name, f] as const))("%s, on every turn", (_name, { session }) => {
    const { series, last, lastTurnViewTokens, notInTranscriptAtFirstTurn } = usageAgainstView(session, null);
    for (const turn of series.turns) {
      const view = contextTokens(contextAtTurn(session, turn), session.format).total;
      // The difference is the system prompt and tool definitions (plus what the agent re-attaches unrecorded).
      expect(view, `line ${turn.line}`).toBeLessThanOrEqual(turn.contextTokens);
    }
    expect(lastTurnViewTokens).toBeLessThanOrEqual(last!.contextTokens);
    expect(notInTranscriptAtFirstTurn).toBeGreaterThan(0);
  });
});

describeWithFixtures("the context at a turn, cut from its branch's recorded context, is the context at the turn's parent", () => {
  // contextAtTurn(…, leafId) takes the branch's own context where it may; it must say what the parent's says.
  const withTurns = fixturesByLoadability().loaded.filter((f) => f.session.usage(null).turns.some((turn) => turn.contextTokens > 0));
  it.each(withTurns.map((f) => [f.name, f] as const))("%s, on every turn of the default branch", (_name, { session }) => {
    for (const turn of session.usage(null).turns) {
      const fromParent = contextAtTurn(session, turn);
      const fromBranch = contextAtTurn(session, turn, null);
      expect(
        fromBranch.map((m) => m.id),
        `line ${turn.line}`,
      ).toEqual(fromParent.map((m) => m.id));
      expect(contextTokens(fromBranch, session.format).total, `line ${turn.line}`).toBe(contextTokens(fromParent, session.format).total);
    }
  });
});

describeWithFixtures("a file that records output tokens per turn but the context only at compactions (Copilot CLI)", () => {
  it("the last and first turns set beside the model's view are ones that state the context; output-only turns (0 read) are not", () => {
    const copilot = fixturesByLoadability().loaded.find((f) => f.session.format === "copilot");
    expect(copilot, "the Copilot fixture loads").toBeDefined();
    const { series, last, notInTranscriptAtFirstTurn } = usageAgainstView(copilot!.session, null);
    const stating = series.turns.filter((turn) => turn.contextTokens > 0);
    // The file itself: many output-only turns, and context figures only where a compaction started.
    expect(series.turns.length).toBeGreaterThan(stating.length);
    expect(stating.length).toBeGreaterThan(0);
    expect(last).toEqual(stating.at(-1));
    expect(last!.contextTokens).toBeGreaterThan(0);
    expect(notInTranscriptAtFirstTurn).not.toBeNull();
  });
});
