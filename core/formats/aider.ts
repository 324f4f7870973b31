/**
 * Aider's chat history (`.aider.chat.history.md` in the repository it works
 * in): Markdown that Aider appends to as it runs. Each run opens with
 * `# aider chat started at <time>`, and a run starts a new chat (Aider does
 * not carry the previous one's messages over unless told to restore them),
 * so each run is a branch of its own here, the newest the default. Within a
 * run:
 * - lines opening with `#### ` are what the user typed (a message, a `/`
 *   command, an answer to one of Aider's questions);
 * - lines opening with `> ` are Aider's console: its questions, the files it
 *   adds, "Applied edit to …", "Commit …", command output, and
 *   "Tokens: 1.9k sent, 638 received." after each model reply. The model
 *   never reads them: they are kept as messages of the harness, outside the
 *   model's view;
 * - everything else is the model's reply, its thinking between
 *   `<thinking-content-…>` tags.
 * What the file does not record, said rather than guessed: tool calls (Aider
 * edits by parsing the reply; its console says which files it changed),
 * the system prompt and repository map it sends, and compactions (Aider
 * summarises old messages in memory when the history grows too long and
 * writes nothing of it here).
 */
import type { Block, Entry, Message, UsageSeries } from "../model.ts";
import type { ReaderOutput } from "./common.ts";

const RUN_START = /^# aider chat started at (.+?)\s*$/;
/** The console line Aider prints after each model reply, rounded as it prints it ("1.9k"). */
const TOKENS_LINE = /^Tokens: ([\d.]+)([kM]?) sent(?:, ([\d.]+)([kM]?) cache write)?(?:, ([\d.]+)([kM]?) cache hit)?, ([\d.]+)([kM]?) received/;
const THINKING = /<(thinking-content-[0-9a-f]+|think)>([\s\S]*?)<\/\1>/g;

type Kind = "user" | "console" | "assistant";

/** True for a file whose first words are an Aider run's heading. */
export function looksLikeAiderHistory(text: string): boolean {
  const first = text.slice(0, 512).trimStart().split("\n", 1)[0] ?? "";
  return RUN_START.test(first);
}

export function readAider(text: string): ReaderOutput {
  const entries: Entry[] = [];
  const lines = text.split("\n");
  let previousId: string | null = null;
  let run = 0;
  let kind: Kind | null = null;
  let block: string[] = [];
  let blockLine = 0;
  let blanks = 0;
  let inFence = false;

  const add = (id: string, line: number, messages: Message[]) => {
    entries.push({ id, parentId: previousId, line, type: "message", messages });
    previousId = id;
  };
  const flush = () => {
    if (kind === null || block.length === 0) return;
    const id = `L${blockLine}`;
    const body = block.join("\n").replace(/\s+$/, "");
    const message: Message =
      kind === "user"
        ? { id, role: "user", meta: { aider: "user", run }, blocks: [{ type: "text", text: body }], line: blockLine }
        : kind === "console"
          ? { id, role: "system", meta: { aider: "console", aiderConsole: true, run }, blocks: [{ type: "text", text: body }], line: blockLine }
          : { id, role: "assistant", meta: { aider: "reply", run }, blocks: replyBlocks(body), line: blockLine };
    add(id, blockLine, [message]);
    block = [];
    kind = null;
  };

  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = raw.replace(/\r$/, "");
    const started = RUN_START.exec(line);
    if (started) {
      flush();
      inFence = false;
      run++;
      // A new run is a new chat: its heading starts a branch of its own.
      previousId = null;
      const id = `L${lineNumber}`;
      add(id, lineNumber, [
        { id, role: "system", meta: { aider: "run", aiderConsole: true, run, startedAt: started[1] }, blocks: [{ type: "text", text: line.slice(2) }], line: lineNumber },
      ]);
      blanks = 0;
      return;
    }
    if (line.trim() === "") {
      blanks++;
      return;
    }
    // Inside a reply's fenced code ("```"), every line is the reply's: ">>>>>>> REPLACE" is no console line.
    if (kind === "assistant" && inFence) {
      for (let i = 0; i < blanks; i++) block.push("");
      blanks = 0;
      block.push(line);
      if (/^\s*```/.test(line)) inFence = false;
      return;
    }
    // Aider ends its console and input lines with two spaces (a Markdown line break).
    const next: Kind = line.startsWith("####") ? "user" : /^>( |$)/.test(line) ? "console" : "assistant";
    if (next === "assistant" && /^\s*```/.test(line)) inFence = true;
    const content = next === "user" ? line.replace(/^####\s?/, "").replace(/ {2}$/, "") : next === "console" ? line.replace(/^>\s?/, "").replace(/ {2}$/, "") : line;
    if (next !== kind) {
      flush();
      kind = next;
      blockLine = lineNumber;
    } else if (blanks > 0 && next === "assistant") {
      // Blank lines inside a reply are its own paragraphs.
      for (let i = 0; i < blanks; i++) block.push("");
    }
    blanks = 0;
    block.push(content);
  });
  flush();

  return {
    format: "aider",
    header: { runs: run },
    entries,
    warnings: [],
    toolCallIds: new Set(),
    offTreeRecords: {},
    defaultLeafId: previousId,
    recorded: (path) => ({ messages: path.flatMap((e) => e.messages), compactions: 0, droppedMessageIds: [] }),
    usage: (path) => aiderUsage(path),
  };
}

/** A reply's text, its thinking apart. */
function replyBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let cursor = 0;
  for (const match of body.matchAll(THINKING)) {
    const before = body.slice(cursor, match.index!).trim();
    if (before) blocks.push({ type: "text", text: before });
    blocks.push({ type: "thinking", text: match[2]!.trim() });
    cursor = match.index! + match[0].length;
  }
  const rest = body.slice(cursor).trim();
  if (rest || blocks.length === 0) blocks.push({ type: "text", text: rest });
  return blocks;
}

function rounded(value: string | undefined, unit: string | undefined): number {
  if (value === undefined) return 0;
  const scale = unit === "k" ? 1_000 : unit === "M" ? 1_000_000 : 1;
  return Math.round(Number(value) * scale);
}

/** Each "Tokens: … sent, … received." console line: the file's own figures, as rounded as Aider prints them. */
function aiderUsage(path: Entry[]): UsageSeries {
  const turns: UsageSeries["turns"] = [];
  for (const entry of path) {
    for (const message of entry.messages) {
      if (message.meta.aider !== "console") continue;
      const text = message.blocks[0]?.type === "text" ? message.blocks[0].text : "";
      text.split("\n").forEach((consoleLine, offset) => {
        const match = TOKENS_LINE.exec(consoleLine);
        if (!match) return;
        const input = rounded(match[1], match[2]);
        const cacheWrite = rounded(match[3], match[4]);
        const cacheRead = rounded(match[5], match[6]);
        turns.push({ line: (message.line ?? 0) + offset, messageId: message.id, input, output: rounded(match[7], match[8]), cacheRead, cacheWrite, contextTokens: input });
      });
    }
  }
  return {
    turns,
    contextWindow: null,
    notes: turns.length > 0 ? ['Aider prints its token counts rounded ("1.9k sent"): the figures are as exact as its console lines'] : [],
  };
}
