/**
 * The new readers on every real fixture of their format: messages, roles,
 * tool-call pairs, tokens and compactions equal counts made here from the
 * raw file (parsed with JSON.parse, counted without the readers' code).
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

/** Raw records, as parsed: read loosely on purpose (the point is to count them without the readers). */
type Json = Record<string, any>;
const text = (relative: string) => new TextDecoder().decode(readFixture(relative));
const roles = (messages: Message[]) => messages.map((m) => m.role);
const textOf = (message: Message) => message.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
const of = (format: string) => allFixtures().filter((f) => f.startsWith(`${format}/`));

describeWithFixtures("real files of the new formats", () => {
  it("there is at least one real Copilot, Gemini and OpenCode file", () => {
    expect([of("copilot").length, of("gemini").length, of("opencode").length].every((n) => n > 0)).toBe(true);
  });
});

describe.each(of("copilot"))("Copilot CLI %s", (relative) => {
  const events: Json[] = text(relative)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
  const session = loadSession(readFixture(relative));
  const isMain = (e: Json) => e.agentId === undefined || e.type.startsWith("subagent.");
  const roleOf = (e: Json): string | null =>
    ({ "user.message": "user", "system.message": "system", "assistant.message": "assistant", "assistant.reasoning": "assistant", "tool.execution_complete": "toolResult" })[
      e.type as string
    ] ?? (e.type === "session.compaction_complete" && typeof e.data.summaryContent === "string" ? "summary" : null);

  it("the main branch holds the main agent's messages in file order, with their roles", () => {
    const expected = events
      .filter(isMain)
      .map(roleOf)
      .filter((r) => r !== null);
    expect(roles(session.branch(null))).toEqual(expected);
    expect(session.branch(null).map((m) => m.id)).toEqual(events.filter((e) => isMain(e) && roleOf(e) !== null).map((e) => e.id));
  });

  it("every tool call is counted and each main result follows its call, in file order", () => {
    const requests = events.filter((e) => e.type === "assistant.message").flatMap((e) => e.data.toolRequests.map((r: Json) => r.toolCallId));
    expect(session.toolCallIds.size).toBe(new Set(requests).size);
    const results = session.branch(null).filter((m) => m.role === "toolResult");
    expect(results.map((m) => m.meta.toolCallId)).toEqual(events.filter((e) => isMain(e) && e.type === "tool.execution_complete").map((e) => e.data.toolCallId));
    const names = new Map(events.filter((e) => e.type === "tool.execution_start").map((e) => [e.data.toolCallId, e.data.toolName]));
    for (const result of results) expect(result.meta.toolName).toBe(names.get(result.meta.toolCallId));
    expect(results.filter((m) => m.meta.isError).length).toBe(events.filter((e) => isMain(e) && e.type === "tool.execution_complete" && e.data.success === false).length);
  });

  it("each subagent is its own branch, opening from its subagent.started event", () => {
    const agents = [...new Set(events.filter((e) => e.type === "subagent.started").map((e) => e.agentId))];
    expect(session.leaves.length).toBe(1 + agents.length);
    for (const agent of agents) {
      const leaf = session.leaves.find((id) => session.path(id).some((entry) => entry.type === "subagent.started" && (entry.data as Json).agentId === agent))!;
      const own = events.filter((e) => e.agentId === agent && !e.type.startsWith("subagent.") && roleOf(e) !== null).map((e) => e.id);
      const branchIds = session.branch(leaf).map((m) => m.id);
      expect(branchIds.slice(-own.length)).toEqual(own);
    }
  });

  it("compaction_complete events are the recorded compactions, with their own figures and summary", () => {
    const completes = events.filter((e) => e.type === "session.compaction_complete" && e.data.success === true);
    const compactions = session.recordedCompactions(null);
    expect(compactions.map((c) => [c.kind, c.entryId, c.tokensBefore, c.summary])).toEqual(
      completes.map((e) => ["copilot-compaction", e.id, e.data.preCompactionTokens, e.data.summaryContent]),
    );
    // The conversation the main agent had sent before compaction_start is dropped; the latest
    // system prompt stays ahead of the summary (each system.message replaces the one before).
    const startIndex = events.findIndex((e) => e.type === "session.compaction_start");
    const sentBefore = events.slice(0, startIndex).filter((e) => isMain(e) && roleOf(e) !== null);
    expect(compactions[0]!.droppedMessageIds).toEqual(sentBefore.filter((e) => e.type !== "system.message").map((e) => e.id));
    const lastSystem = sentBefore.filter((e) => e.type === "system.message").at(-1)!;
    expect(compactions[0]!.before.filter((m) => m.role === "system").map((m) => m.id)).toEqual([lastSystem.id]);
    expect(compactions[0]!.after.slice(0, 2).map((m) => m.id)).toEqual([lastSystem.id, completes[0]!.id]);
    const recorded = session.recordedContext(null);
    const mainAfterStart = events.slice(startIndex).filter((e) => isMain(e) && roleOf(e) !== null);
    const systemsAfter = mainAfterStart.filter((e) => e.type === "system.message");
    expect(recorded.messages.filter((m) => m.role === "system").map((m) => m.id)).toEqual([(systemsAfter.at(-1) ?? lastSystem).id]);
    expect(recorded.messages.filter((m) => m.role !== "system").length).toBe(mainAfterStart.filter((e) => e.type !== "system.message").length);
  });

  it("usage: outputTokens of every main assistant message, and each compaction_start's context size", () => {
    const turns = session.usage(null).turns;
    const outputs = events.filter((e) => isMain(e) && e.type === "assistant.message" && typeof e.data.outputTokens === "number").map((e) => e.data.outputTokens);
    const starts = events.filter((e) => e.type === "session.compaction_start").map((e) => e.data.systemTokens + e.data.conversationTokens + e.data.toolDefinitionsTokens);
    expect(turns.filter((t) => t.messageId !== undefined).map((t) => t.output)).toEqual(outputs);
    expect(turns.filter((t) => t.messageId === undefined).map((t) => t.contextTokens)).toEqual(starts);
  });
});

describe.each(of("gemini"))("Gemini CLI %s", (relative) => {
  const file: Json = JSON.parse(text(relative));
  const session = loadSession(readFixture(relative));
  const withResult = (m: Json) => (m.toolCalls ?? []).filter((c: Json) => c.result !== undefined);

  it("each message in order, a toolResult after its reply for every call with a result", () => {
    const expected = file.messages.flatMap((m: Json) => [m.type === "user" ? "user" : m.type === "gemini" ? "assistant" : "custom", ...withResult(m).map(() => "toolResult")]);
    expect(roles(session.branch(null))).toEqual(expected);
  });

  it("tool calls: ids, arguments and result texts as written", () => {
    const calls = file.messages.flatMap((m: Json) => m.toolCalls ?? []);
    expect([...session.toolCallIds]).toEqual(calls.map((c: Json) => c.id));
    const branch = session.branch(null);
    const blocks = branch.flatMap((m) => m.blocks.filter((b) => b.type === "toolCall"));
    expect(blocks.map((b) => (b.type === "toolCall" ? [b.id, b.name, b.arguments] : null))).toEqual(calls.map((c: Json) => [c.id, c.name, c.args]));
    const results = branch.filter((m) => m.role === "toolResult");
    const expected = file.messages.flatMap(withResult);
    expect(results.map((m) => [m.meta.toolCallId, textOf(m)])).toEqual(expected.map((c: Json) => [c.id, c.result.map((r: Json) => r.functionResponse.response.output).join("\n")]));
  });

  it("thoughts are thinking blocks; info lines never reach the model; no compression recorded", () => {
    const thinking = session.branch(null).flatMap((m) => m.blocks.filter((b) => b.type === "thinking"));
    expect(thinking.length).toBe(file.messages.reduce((n: number, m: Json) => n + (m.thoughts?.length ?? 0), 0));
    const recorded = session.recordedContext(null);
    expect(recorded.messages.length).toBe(session.branch(null).length - file.messages.filter((m: Json) => !["user", "gemini"].includes(m.type)).length);
    expect(session.recordedCompactions(null)).toEqual([]);
  });

  it("usage: one turn per reply with tokens, context = its input", () => {
    const turns = session.usage(null).turns;
    const withTokens = file.messages.filter((m: Json) => m.tokens);
    expect(turns.map((t) => [t.messageId, t.contextTokens, t.cacheRead])).toEqual(withTokens.map((m: Json) => [m.id, m.tokens.input, m.tokens.cached]));
  });
});

describe.each(of("opencode"))("OpenCode export %s", (relative) => {
  const file: Json = JSON.parse(text(relative));
  const session = loadSession(readFixture(relative));
  const branch = session.branch(null);
  const parts = (m: Json, type: string) => m.parts.filter((p: Json) => p.type === type);

  it("user, assistant and summary messages in order; tool calls and results one per tool part", () => {
    const byMessage = file.messages.map((m: Json) => branch.filter((b) => b.id === m.info.id || b.id.startsWith(`${m.info.id}#`)));
    file.messages.forEach((m: Json, i: number) => {
      const own = byMessage[i];
      const role = m.info.role === "user" ? "user" : m.info.summary === true ? "summary" : "assistant";
      expect(new Set(own.map((x: Message) => x.role))).toEqual(new Set([role]));
      const calls = own.flatMap((x: Message) => x.blocks.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])));
      expect(calls).toEqual(parts(m, "tool").map((p: Json) => p.callID));
      expect(own.flatMap((x: Message) => x.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])))).toEqual(parts(m, "text").map((p: Json) => p.text));
    });
    const tools = file.messages.flatMap((m: Json) => parts(m, "tool"));
    const results = branch.filter((m) => m.role === "toolResult");
    expect(results.map((m) => [m.id, m.meta.toolCallId, m.meta.isError])).toEqual(tools.map((p: Json) => [p.id, p.callID, p.state.status === "error"]));
    expect(session.toolCallIds.size).toBe(new Set(tools.map((p: Json) => p.callID)).size);
  });

  it("the compaction part and its summary message are the recorded compaction", () => {
    const requestIndex = file.messages.findIndex((m: Json) => parts(m, "compaction").length > 0);
    const summaries = file.messages.filter((m: Json) => m.info.summary === true);
    const compactions = session.recordedCompactions(null).filter((c) => c.kind === "opencode-compaction");
    expect(compactions.map((c) => c.entryId)).toEqual(summaries.map((m: Json) => m.info.id));
    const summary = summaries[0];
    const t = summary.info.tokens;
    expect(compactions[0]).toMatchObject({
      trigger: parts(file.messages[requestIndex], "compaction")[0].auto ? "auto" : "manual",
      tokensBefore: t.input + t.cache.read + t.cache.write,
      summary: parts(summary, "text")
        .map((p: Json) => p.text)
        .join("\n"),
    });
    const earlier = new Set(file.messages.slice(0, requestIndex).map((m: Json) => m.info.id));
    const before = branch.filter((m) => earlier.has(String(m.id).split("#")[0]) || earlier.has(String(m.meta.messageId)));
    expect(compactions[0]!.droppedMessageIds).toEqual(before.map((m) => m.id));
    expect(session.recordedContext(null).messages[0]!.id).toBe(file.messages[requestIndex].info.id);
    const pruned = file.messages.flatMap((m: Json) => parts(m, "tool")).filter((p: Json) => p.state.time?.compacted !== undefined);
    expect(session.recordedCompactions(null).filter((c) => c.kind === "opencode-prune").length).toBe(new Set(pruned.map((p: Json) => p.state.time.compacted)).size);
  });

  it("usage: one turn per step-finish part", () => {
    const finishes = file.messages.flatMap((m: Json) => parts(m, "step-finish"));
    expect(session.usage(null).turns.map((t) => [t.input, t.output])).toEqual(finishes.map((p: Json) => [p.tokens.input, p.tokens.output + p.tokens.reasoning]));
  });
});

describe.each(of("copilot"))("Copilot CLI user messages %s", (relative) => {
  const events: Json[] = text(relative)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
  const byId = new Map(
    loadSession(readFixture(relative))
      .entries.flatMap((e) => e.messages)
      .map((m) => [m.id, m]),
  );

  it("a user message is what the user typed; one the harness sent itself is its transformed text, marked synthetic", () => {
    for (const e of events.filter((x) => x.type === "user.message")) {
      const message = byId.get(e.id)!;
      const injected = e.data.content === "" && e.data.source === "system";
      expect(textOf(message)).toBe(injected ? e.data.transformedContent : e.data.content);
      expect(message.meta.synthetic === true).toBe(injected);
      expect(message.meta.transformedContent).toBe(e.data.transformedContent);
    }
  });
});
