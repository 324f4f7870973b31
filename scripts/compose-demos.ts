/**
 * Writes the demo sessions in public/demos/. They are composed for this
 * project (no real user's session): a Pi session with two branches, a
 * compaction, thinking, a failing then passing test, a user bash run, an
 * extension message and an image; a Claude Code transcript with a compact
 * boundary and streamed lines; an OpenAI chat array. Deterministic: run
 * `npx tsx scripts/compose-demos.ts` to regenerate the committed files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "../public/demos");
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function jsonl(records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

function piLedger(): string {
  const records: unknown[] = [{ type: "session", version: 3, id: "0199d3f0-demo-7000-8000-00000000ledg", timestamp: "2026-11-02T09:00:00.000Z", cwd: "/home/demo/ledger" }];
  let clock = Date.parse("2026-11-02T09:00:01.000Z");
  let n = 0;
  const nextId = () => (0xd0000000 + n++).toString(16);
  const at = () => new Date((clock += 1500)).toISOString();
  const usage = { input: 1800, output: 220, cacheRead: 12000, cacheWrite: 0, totalTokens: 14020 };
  let parent: string | null = null;
  const add = (entry: Record<string, unknown>) => {
    const id = nextId();
    records.push({ ...entry, id, parentId: parent, timestamp: at() });
    parent = id;
    return id;
  };
  const user = (content: unknown) => add({ type: "message", message: { role: "user", content, timestamp: clock } });
  const assistant = (content: unknown[]) =>
    add({
      type: "message",
      message: {
        role: "assistant",
        content,
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: content.some((b) => (b as { type: string }).type === "toolCall") ? "toolUse" : "stop",
        timestamp: clock,
      },
    });
  const result = (toolCallId: string, toolName: string, text: string, isError = false, extra: unknown[] = []) =>
    add({ type: "message", message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }, ...extra], isError, timestamp: clock } });

  add({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  user([
    {
      type: "text",
      text: "CSV export of the ledger drops every row whose amount is 0. Fix it.\nRules: never edit anything under migrations/, and always run `npm test -- ledger` before you tell me it works.\nKeep non-ASCII intact: Grüße, 東京, 🧾.",
    },
  ]);
  assistant([
    { type: "thinking", thinking: "A truthiness filter would drop 0. Read src/export.ts before guessing.", thinkingSignature: "demo-sig-1" },
    { type: "text", text: "I'll read the exporter first." },
    { type: "toolCall", id: "toolu_demo_01", name: "read", arguments: { path: "src/export.ts" } },
  ]);
  const exporter = [
    "import { toCsv } from './csv';",
    "",
    "export function rows(ledger: Ledger): string[] {",
    "  return ledger.entries.filter((e) => e.amount).map(toCsv);",
    "}",
    ...Array.from({ length: 40 }, (_, i) => `// helper ${i + 1}: formatting details kept for the demo`),
  ].join("\n");
  result("toolu_demo_01", "read", exporter);
  assistant([
    { type: "text", text: "`filter((e) => e.amount)` treats 0 as false, so zero rows vanish. I'll compare against undefined instead." },
    {
      type: "toolCall",
      id: "toolu_demo_02",
      name: "edit",
      arguments: { path: "src/export.ts", oldText: "filter((e) => e.amount)", newText: "filter((e) => e.amount !== undefined)" },
    },
  ]);
  const afterEdit = result("toolu_demo_02", "edit", "Edited src/export.ts");
  // An abandoned branch: the user asks for a migration instead, then goes back.
  user("Actually, try a migration that backfills null amounts instead.");
  assistant([
    { type: "toolCall", id: "toolu_demo_03", name: "write", arguments: { path: "migrations/0042_backfill.sql", content: "UPDATE entries SET amount = 0 WHERE amount IS NULL;" } },
  ]);
  result("toolu_demo_03", "write", "Wrote migrations/0042_backfill.sql");
  parent = afterEdit;
  add({ type: "label", targetId: afterEdit, label: "filter-fixed" });
  assistant([
    { type: "text", text: "Running the ledger tests as you asked." },
    { type: "toolCall", id: "toolu_demo_04", name: "bash", arguments: { command: "npm test -- ledger" } },
  ]);
  result(
    "toolu_demo_04",
    "bash",
    "FAIL test/ledger.test.ts\n  ● export keeps zero rows\n    TypeError: Cannot read properties of undefined (reading 'toFixed')\n      at toCsv (src/csv.ts:3:41)\n\nTests: 1 failed, 11 passed\nCommand exited with code 1",
    true,
  );
  assistant([
    { type: "thinking", thinking: "toCsv calls amount.toFixed; entries with no amount now reach it.", thinkingSignature: "demo-sig-2" },
    { type: "text", text: "toCsv assumes every amount is a number. Reading it, and the screenshot of the failing report." },
    { type: "toolCall", id: "toolu_demo_05", name: "read", arguments: { path: "src/csv.ts" } },
    { type: "x-annotation", payload: { note: "a block type from a newer agent version" } },
  ]);
  result("toolu_demo_05", "read", "export const toCsv = (e: Entry) => `${e.id},${e.amount.toFixed(2)}`;", false, [{ type: "image", mimeType: "image/png", data: PNG_1PX }]);
  add({
    type: "custom_message",
    customType: "lint-hint",
    content: "Lint extension: prefer Number.isFinite over truthiness checks.",
    display: true,
    details: { rule: "no-truthy-number" },
  });
  add({
    type: "message",
    message: {
      role: "bashExecution",
      command: "git status --short",
      output: " M src/export.ts\n",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      excludeFromContext: false,
      timestamp: clock,
    },
  });
  const firstKept = parent;
  for (let i = 0; i < 12; i++) {
    assistant([
      { type: "text", text: `Checking caller ${i + 1} of toCsv before changing it.` },
      { type: "toolCall", id: `toolu_demo_g${i}`, name: "grep", arguments: { pattern: "toCsv", path: `src/reports/report${i + 1}.ts` } },
    ]);
    result(`toolu_demo_g${i}`, "grep", `src/reports/report${i + 1}.ts:${10 + i}:  lines.push(toCsv(entry));\n${"  // surrounding context line\n".repeat(8)}`);
  }
  add({
    type: "compaction",
    summary:
      "## Goal\nKeep zero-amount rows in the CSV export.\n\n## Progress\n- [x] Filter in src/export.ts compares against undefined\n- [ ] toCsv crashes on undefined amounts\n\n## Next Steps\n- Make toCsv tolerate a missing amount, rerun the ledger tests",
    firstKeptEntryId: firstKept,
    // The last turn's own usage before it (input + cache read, as the turns above record): the file's figures agree with each other.
    tokensBefore: 13800,
    details: { readFiles: ["src/csv.ts", "src/export.ts"], modifiedFiles: ["src/export.ts"] },
  });
  assistant([{ type: "toolCall", id: "toolu_demo_06", name: "edit", arguments: { path: "src/csv.ts", oldText: "e.amount.toFixed(2)", newText: "(e.amount ?? 0).toFixed(2)" } }]);
  result("toolu_demo_06", "edit", "Edited src/csv.ts");
  assistant([{ type: "toolCall", id: "toolu_demo_07", name: "bash", arguments: { command: "npm test -- ledger" } }]);
  result("toolu_demo_07", "bash", "PASS test/ledger.test.ts\nTests: 12 passed");
  assistant([{ type: "text", text: "Both fixes are in and `npm test -- ledger` passes (12 tests). Nothing under migrations/ was touched on this branch." }]);
  add({ type: "session_info", name: "Zero-amount ledger rows" });
  user("Great. Next, add a test for negative amounts in test/ledger.test.ts and open a PR that references issue #318.");
  return jsonl(records);
}

function claudeFlaky(): string {
  const session = "5f0c2d1e-demo-4c1b-9e55-0000000flaky";
  const base = { isSidechain: false, userType: "external", cwd: "/home/demo/app", sessionId: session, version: "2.1.40", gitBranch: "fix/flaky-retry" };
  const records: unknown[] = [];
  let n = 0;
  let parent: string | null = null;
  let clock = Date.parse("2026-11-03T14:00:00.000Z");
  const uuid = () => `00000000-0000-4000-8000-${(n++).toString().padStart(12, "0")}`;
  const line = (record: Record<string, unknown>) => {
    const id = uuid();
    records.push({ parentUuid: parent, ...base, ...record, uuid: id, timestamp: new Date((clock += 2000)).toISOString() });
    parent = id;
    return id;
  };
  // Figures shaped like Claude Code's: a few fresh input tokens, the rest read from the prompt cache; the
  // context (input + cache) starts near 14k, the system prompt and tool definitions no transcript holds.
  const assistantLines = (messageId: string, blocks: unknown[], context: number) => {
    for (const block of blocks) {
      line({
        type: "assistant",
        requestId: `req_${messageId}`,
        message: {
          model: "claude-opus-4-6",
          id: messageId,
          type: "message",
          role: "assistant",
          content: [block],
          stop_reason: null,
          usage: { input_tokens: 3, cache_creation_input_tokens: 120, cache_read_input_tokens: context - 123, output_tokens: 40 },
        },
      });
    }
  };
  const toolResult = (toolUseId: string, content: string, isError = false, structured: unknown = { stdout: content }) =>
    line({ type: "user", message: { role: "user", content: [{ tool_use_id: toolUseId, type: "tool_result", content, is_error: isError }] }, toolUseResult: structured });

  records.push({ type: "file-history-snapshot", messageId: "snap-1", snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false });
  line({ type: "user", message: { role: "user", content: "test/retry.spec.ts fails about one run in five on CI. Find out why.\nRule: do not just raise the timeout." } });
  assistantLines(
    "msg_demo_01",
    [
      { type: "thinking", thinking: "Flaky one in five: likely shared state or real timers.", signature: "sig" },
      { type: "text", text: "I'll run the spec a few times to see the failure." },
      {
        type: "tool_use",
        id: "toolu_c01",
        name: "Bash",
        input: { command: "for i in 1 2 3 4 5; do npx vitest run test/retry.spec.ts || break; done", description: "Run the spec repeatedly" },
      },
    ],
    14210,
  );
  toolResult("toolu_c01", "✓ retry.spec.ts (4 tests)\n✓ retry.spec.ts (4 tests)\n✗ retry.spec.ts > backs off twice\n  AssertionError: expected 3 calls, got 2\nExit code 1", true);
  assistantLines(
    "msg_demo_02",
    [
      { type: "text", text: "It fails on the call count. Reading the retry helper and the spec." },
      { type: "tool_use", id: "toolu_c02", name: "Read", input: { file_path: "/home/demo/app/src/retry.ts" } },
      { type: "tool_use", id: "toolu_c03", name: "Read", input: { file_path: "/home/demo/app/test/retry.spec.ts" } },
    ],
    14760,
  );
  toolResult(
    "toolu_c02",
    "export async function retry(fn, { attempts = 3, delay = 100 } = {}) {\n  for (let i = 0; i < attempts; i++) {\n    try { return await fn(); } catch (e) { await sleep(delay * 2 ** i); }\n  }\n}",
  );
  toolResult(
    "toolu_c03",
    "it('backs off twice', async () => {\n  vi.useFakeTimers();\n  const p = retry(flaky);\n  await vi.advanceTimersByTimeAsync(250);\n  expect(flaky).toHaveBeenCalledTimes(3);\n});",
  );
  const boundaryParent = parent;
  parent = null;
  line({
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    isMeta: false,
    level: "info",
    logicalParentUuid: boundaryParent,
    compactMetadata: { trigger: "auto", preTokens: 15010 },
  });
  line({
    type: "user",
    isCompactSummary: true,
    isVisibleInTranscriptOnly: true,
    message: {
      role: "user",
      content:
        "This session is being continued from a previous conversation that ran out of context. Summary: the retry spec is flaky; retry() sleeps 100ms then 200ms; the spec advances fake timers by 250ms.",
    },
  });
  assistantLines(
    "msg_demo_03",
    [
      { type: "text", text: "100 + 200 = 300ms of back-off, but the spec only advances 250ms, so the third call depends on scheduling. The fix is in the spec." },
      {
        type: "tool_use",
        id: "toolu_c04",
        name: "Edit",
        input: { file_path: "/home/demo/app/test/retry.spec.ts", old_string: "advanceTimersByTimeAsync(250)", new_string: "advanceTimersByTimeAsync(300)" },
      },
    ],
    14460,
  );
  toolResult("toolu_c04", "The file /home/demo/app/test/retry.spec.ts has been updated.");
  assistantLines(
    "msg_demo_04",
    [{ type: "tool_use", id: "toolu_c05", name: "Bash", input: { command: "for i in $(seq 20); do npx vitest run test/retry.spec.ts || exit 1; done" } }],
    14980,
  );
  toolResult("toolu_c05", "✓ retry.spec.ts (4 tests)\n… 20 runs, 0 failures", false);
  assistantLines("msg_demo_05", [{ type: "text", text: "Fixed: the spec advanced 250ms for 300ms of back-off. 20 runs in a row pass; the timeout was not touched." }], 15240);
  return jsonl(records);
}

function openaiRename(): string {
  const messages = [
    { role: "system", content: "You are a coding assistant working in /home/demo/api." },
    { role: "user", content: "Rename getUser to fetchUser in src/api.ts and keep getUser as a deprecated alias." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_demo_1", type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: "src/api.ts" }) } }] },
    { role: "tool", tool_call_id: "call_demo_1", content: "export async function getUser(id: string) {\n  return http.get(`/users/${id}`);\n}\n" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_demo_2",
          type: "function",
          function: {
            name: "write_file",
            arguments: JSON.stringify({
              path: "src/api.ts",
              content:
                "export async function fetchUser(id: string) {\n  return http.get(`/users/${id}`);\n}\n/** @deprecated use fetchUser */\nexport const getUser = fetchUser;\n",
            }),
          },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_demo_2", content: "ok" },
    { role: "assistant", content: "Renamed to fetchUser; getUser remains as a deprecated alias so existing callers keep working." },
  ];
  return JSON.stringify(messages, null, 2) + "\n";
}

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "pi-ledger-fix.jsonl"), piLedger());
writeFileSync(join(OUT, "claude-flaky-test.jsonl"), claudeFlaky());
writeFileSync(join(OUT, "openai-rename.json"), openaiRename());
console.log("wrote", OUT);
