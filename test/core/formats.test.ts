/**
 * Every real fixture loads with real expectations: format, leaf, message and
 * tool-call counts, roles, call/result pairing, warnings. Figures were
 * checked by hand against the files (see PROVENANCE.md for their sources).
 */
import { describe, expect, it } from "vitest";
import { inspectSession } from "../../core/inspect.ts";
import type { Message } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { toolCallsById, toolOutcome } from "../../core/tool-info.ts";
import { allFixtures, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

interface Expected {
  format: string;
  formatVersion: string | null;
  leafId: string;
  leaves: number;
  branchMessages: number;
  recordedContextMessages: number;
  toolCalls: number;
  branchToolCalls: number;
  warnings: number;
}

const EXPECTED: Record<string, Expected> = {
  "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl": {
    format: "claude",
    formatVersion: "2.1.14",
    leafId: "612a68c7-228b-4a62-8bb7-13d30053ba53",
    leaves: 1,
    branchMessages: 80,
    recordedContextMessages: 80,
    toolCalls: 39,
    branchToolCalls: 39,
    warnings: 0,
  },
  "claude/entireio__cli__d0-161e0df1cb.jsonl": {
    format: "claude",
    formatVersion: "2.1.33",
    leafId: "1528eb70-163f-4833-a187-16878bf44521",
    leaves: 2,
    branchMessages: 416,
    recordedContextMessages: 58,
    toolCalls: 196,
    branchToolCalls: 195,
    warnings: 1,
  },
  "claude/entireio__cli__f9-f6f611b469.jsonl": {
    format: "claude",
    formatVersion: "2.1.20",
    leafId: "ab2eee98-cf88-4138-91ba-65a942724e62",
    leaves: 1,
    branchMessages: 172,
    recordedContextMessages: 9,
    toolCalls: 92,
    branchToolCalls: 91,
    warnings: 1,
  },
  "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl": {
    format: "codex",
    formatVersion: "0.142.2",
    leafId: "L861",
    leaves: 1,
    branchMessages: 583,
    recordedContextMessages: 217,
    toolCalls: 177,
    branchToolCalls: 177,
    warnings: 0,
  },
  "codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl": {
    format: "codex",
    formatVersion: "legacy-2025-08",
    leafId: "L582",
    leaves: 1,
    branchMessages: 322,
    recordedContextMessages: 322,
    toolCalls: 111,
    branchToolCalls: 111,
    warnings: 0,
  },
  "composed/anthropic-messages.json": {
    format: "anthropic",
    formatVersion: null,
    leafId: "m3",
    leaves: 1,
    branchMessages: 4,
    recordedContextMessages: 4,
    toolCalls: 1,
    branchToolCalls: 1,
    warnings: 0,
  },
  "composed/codex-modern-compacted.jsonl": {
    format: "codex",
    formatVersion: "0.146.0",
    leafId: "L20",
    leaves: 1,
    branchMessages: 12,
    recordedContextMessages: 3,
    toolCalls: 3,
    branchToolCalls: 3,
    warnings: 1,
  },
  "composed/openai-chat.json": {
    format: "openai",
    formatVersion: null,
    leafId: "m4",
    leaves: 1,
    branchMessages: 5,
    recordedContextMessages: 5,
    toolCalls: 1,
    branchToolCalls: 1,
    warnings: 0,
  },
  "composed/pi-v2-hookmessage.jsonl": {
    format: "pi",
    formatVersion: "2",
    leafId: "d0000003",
    leaves: 1,
    branchMessages: 3,
    recordedContextMessages: 3,
    toolCalls: 0,
    branchToolCalls: 0,
    warnings: 0,
  },
  "composed/pi-v3-tree.jsonl": {
    format: "pi",
    formatVersion: "3",
    leafId: "c0000010",
    leaves: 2,
    branchMessages: 18,
    recordedContextMessages: 11,
    toolCalls: 7,
    branchToolCalls: 6,
    warnings: 0,
  },
  "copilot/polecatspeaks__StarCar__events-11-9681650804.jsonl": {
    format: "copilot",
    formatVersion: "1.0.74",
    leafId: "882f8095-0905-47f5-b992-a4b934591553",
    leaves: 3,
    branchMessages: 216,
    recordedContextMessages: 62,
    toolCalls: 173,
    branchToolCalls: 103,
    warnings: 0,
  },
  "gemini/savekirk__session-bridge__gemini-session-cdb14b05.json": {
    format: "gemini",
    formatVersion: "json",
    leafId: "da4d49aa-4c70-4a4b-b86a-8c6376f6026a",
    leaves: 1,
    branchMessages: 84,
    recordedContextMessages: 82,
    toolCalls: 40,
    branchToolCalls: 40,
    warnings: 0,
  },
  "messages/SWE-agent__mini-swe-agent__github_issue.traj.json": {
    format: "openai",
    formatVersion: null,
    leafId: "m21",
    leaves: 1,
    branchMessages: 22,
    recordedContextMessages: 22,
    toolCalls: 0,
    branchToolCalls: 0,
    warnings: 0,
  },
  "opencode/savekirk__session-bridge__opencode-export-ses_277daa810ffe.json": {
    format: "opencode",
    formatVersion: "1.4.3",
    leafId: "msg_d891921f9001u10DFjzFl8iFmV",
    leaves: 1,
    branchMessages: 147,
    recordedContextMessages: 55,
    toolCalls: 72,
    branchToolCalls: 72,
    warnings: 0,
  },
  "pi/JohnnyLai92__pi-mono__6edf3497.jsonl": {
    format: "pi",
    formatVersion: "3",
    leafId: "69b604c5",
    leaves: 1,
    branchMessages: 229,
    recordedContextMessages: 229,
    toolCalls: 105,
    branchToolCalls: 105,
    warnings: 0,
  },
  "pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl": {
    format: "pi",
    formatVersion: "3",
    leafId: "d3a34df7",
    leaves: 1,
    branchMessages: 217,
    recordedContextMessages: 217,
    toolCalls: 101,
    branchToolCalls: 101,
    warnings: 0,
  },
  "pi/badlogic__pi-mono__before-compaction.jsonl": {
    format: "pi",
    formatVersion: "1",
    leafId: "L1003",
    leaves: 1,
    branchMessages: 992,
    recordedContextMessages: 446,
    toolCalls: 454,
    branchToolCalls: 454,
    warnings: 0,
  },
  "pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl": {
    format: "pi",
    formatVersion: "3",
    leafId: "9b99ecf5",
    leaves: 1,
    branchMessages: 234,
    recordedContextMessages: 65,
    toolCalls: 107,
    branchToolCalls: 107,
    warnings: 0,
  },
};

/** Every result answers an earlier call on the same branch, and ids are unique. */
function expectPairing(branch: Message[]) {
  const calls = toolCallsById(branch);
  const seenCalls = new Set<string>();
  for (const message of branch) {
    for (const block of message.blocks) if (block.type === "toolCall") seenCalls.add(block.id);
    if (message.role === "toolResult") {
      const { callId } = toolOutcome(message, calls);
      expect(callId, `result ${message.id} names its call`).toBeTruthy();
      expect(seenCalls.has(callId!), `result ${message.id} follows call ${callId}`).toBe(true);
    }
  }
  expect(new Set(branch.map((m) => m.id)).size).toBe(branch.length);
}

describeWithFixtures("every fixture", () => {
  it("has an expectation (a new fixture needs one)", () => {
    expect(allFixtures()).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(allFixtures())("%s", (relative) => {
    const expected = EXPECTED[relative]!;
    const session = loadSession(readFixture(relative));
    const summary = inspectSession(session);

    it("reads with the expected counts", () => {
      // Token figures and usage are checked in test/core/tokens/.
      expect({ ...summary, leaves: summary.leaves.length, warnings: summary.warnings.length, usage: undefined, modelViewTokens: undefined }).toEqual(expected);
    });

    it("pairs every tool result with a call on the branch, ids unique", () => {
      expectPairing(session.branch(null));
    });

    it("gives the same ids on a second load (stable, deterministic)", () => {
      const again = loadSession(readFixture(relative));
      expect(again.branch(null).map((m) => m.id)).toEqual(session.branch(null).map((m) => m.id));
    });

    it("keeps the recorded context inside the agent's own history", () => {
      const recorded = session.recordedContext(null);
      const branchIds = new Set(session.branch(null).map((m) => m.id));
      // Everything the agent still sends is either on the branch or written by its compaction.
      for (const message of recorded.messages) if (!branchIds.has(message.id)) expect(message.id).toMatch(/\.r\d+$/);
    });
  });
});

describeWithFixtures("format details", () => {
  it("Pi v3: a sibling branch never leaks into the current branch", () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"), { strict: true });
    const ids = session.branch(null).map((m) => m.id);
    expect(ids).not.toContain("b0000003"); // the abandoned migration write
    expect(ids).toContain("c0000001");
    const other = session.leaves.find((leaf) => leaf !== session.defaultLeafId)!;
    expect(session.branch(other).map((m) => m.id)).toContain("b0000003");
    expect(session.branch(other).map((m) => m.id)).not.toContain("c0000001");
  });

  it("Pi v3: roles, metadata verbatim (false stays false), unknown blocks raw", () => {
    const session = loadSession(readFixture("composed/pi-v3-tree.jsonl"));
    const byId = new Map(session.branch(null).map((m) => [m.id, m]));
    const bash = byId.get("c0000008")!;
    expect(bash.role).toBe("bash");
    expect(bash.meta).toMatchObject({ command: "git status --short", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: false });
    expect(byId.get("c0000007")!.role).toBe("custom");
    expect(byId.get("c0000009")!.role).toBe("summary");
    expect(byId.get("c0000005")!.blocks.map((b) => b.type)).toEqual(["text", "toolCall", "raw"]);
    expect(byId.get("c0000006")!.blocks.map((b) => b.type)).toEqual(["text", "image"]);
    expect(byId.get("c0000004")!.meta.isError).toBe(true);
    expect(byId.get("a0000004")!.blocks[0]).toMatchObject({ type: "thinking", extra: { thinkingSignature: "sig-1" } });
  });

  it("Pi v2: hookMessage is read as custom, its source role kept in meta", () => {
    const session = loadSession(readFixture("composed/pi-v2-hookmessage.jsonl"));
    const hook = session.branch(null)[1]!;
    expect(hook.role).toBe("custom");
    expect(hook.meta).toMatchObject({ role: "hookMessage", customType: "ctx", display: false });
  });

  it("Claude Code: streamed lines merge by message.id, the compact summary is a summary", () => {
    const session = loadSession(readFixture("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    const branch = session.branch(null);
    const apiIds = branch.filter((m) => m.role === "assistant").map((m) => m.meta.id);
    // Merged: no two consecutive assistant messages share one API message id.
    for (let i = 1; i < branch.length; i++) {
      if (branch[i]!.role === "assistant" && branch[i - 1]!.role === "assistant") expect(branch[i]!.meta.id).not.toBe(branch[i - 1]!.meta.id);
    }
    expect(apiIds.length).toBeGreaterThan(0);
    const summaries = branch.filter((m) => m.role === "summary");
    expect(summaries).toHaveLength(1);
    expect(session.recordedContext(null).messages[0]!.role).toBe("summary");
    expect(session.offTreeRecords["file-history-snapshot"]).toBe(35);
  });

  it("Codex modern: the last replacement_history is the recorded context", () => {
    const session = loadSession(readFixture("composed/codex-modern-compacted.jsonl"));
    const recorded = session.recordedContext(null);
    expect(recorded.compactions).toBe(1);
    expect(recorded.messages.map((m) => m.role)).toEqual(["user", "user", "user"]);
    expect(recorded.messages.at(-1)!.blocks[0]).toMatchObject({ type: "text", text: "Start postgres with docker compose up db and rerun the tests." });
  });

  it("Codex: exit codes come from the output (legacy JSON metadata, modern exit line)", () => {
    const modern = loadSession(readFixture("composed/codex-modern-compacted.jsonl")).branch(null);
    const calls = toolCallsById(modern);
    const outcomes = modern.filter((m) => m.role === "toolResult").map((m) => toolOutcome(m, calls));
    expect(outcomes.map((o) => o.exitCode)).toEqual([0, 0, 1]);
    expect(outcomes[2]).toMatchObject({ toolName: "exec_command", isError: true });
    const legacy = loadSession(readFixture("codex/JaydenXsoe__ocodex__rollout-2025-08-26T20-20-25.jsonl")).branch(null);
    const first = legacy.find((m) => m.role === "toolResult")!;
    expect(toolOutcome(first, toolCallsById(legacy))).toMatchObject({ toolName: "shell", exitCode: 0, isError: false });
  });

  it("OpenAI: tool_calls become toolCall blocks with parsed arguments; tool messages are results", () => {
    const branch = loadSession(readFixture("composed/openai-chat.json")).branch(null);
    expect(branch.map((m) => m.role)).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
    const call = branch[2]!.blocks.find((b) => b.type === "toolCall")!;
    expect(call.type === "toolCall" && typeof call.arguments).toBe("object");
    expect(branch[2]!.meta.content).toBeUndefined();
  });

  it("Anthropic: tool_result blocks split into toolResult messages", () => {
    const branch = loadSession(readFixture("composed/anthropic-messages.json")).branch(null);
    expect(branch.map((m) => m.role)).toContain("toolResult");
    expect(branch[1]!.blocks[0]!.type).toBe("thinking");
  });

  it("a --format override is honoured and a wrong one is a clear error", () => {
    expect(loadSession(readFixture("composed/pi-v3-tree.jsonl"), { format: "pi" }).format).toBe("pi");
    expect(() => loadSession(readFixture("composed/openai-chat.json"), { format: "pi" })).toThrow(/message array, not a pi session/);
  });
});
