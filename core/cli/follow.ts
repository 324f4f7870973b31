/**
 * `audit FILE --follow` and `inspect FILE --follow`: the session followed
 * while the agent writes it (core/follow.ts reads only what was appended).
 * One line per turn the file records (context tokens, and the share of the
 * window where the file states one) and, for each compaction as it is
 * recorded, its audit row (`audit`) or the file's own figures (`inspect`);
 * `--json`: one JSON object per line. It stops cleanly on Ctrl-C, and when
 * the file is removed or replaced by another; a file rewritten in place is
 * read again from the start, saying so.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { auditSession } from "../audit/session.ts";
import { compactionLine, compactionRow } from "../audit/rows.ts";
import { FollowedFile } from "../follow.ts";
import type { Session, UsageTurn } from "../model.ts";
import { UsageError, wholeNumberFlag, type ParsedArgs } from "./flags.ts";
import { formatFlag } from "./input.ts";

const READ_PIECE = 8 * 1024 * 1024;
const DEFAULT_INTERVAL_MS = 500;

type Mode = "audit" | "inspect";

function readRange(path: string, from: number, to: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const out = new Uint8Array(to - from);
    let at = 0;
    while (at < out.length) {
      const read = readSync(fd, out, at, Math.min(READ_PIECE, out.length - at), from + at);
      if (read === 0) break;
      at += read;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

function turnOutput(turn: UsageTurn, window: number | null, json: boolean): string {
  const share = window ? turn.contextTokens / window : null;
  if (json) return JSON.stringify({ kind: "turn", line: turn.line, messageId: turn.messageId, contextTokens: turn.contextTokens, window, windowShare: share });
  const of = share === null ? "" : ` (${(share * 100).toFixed(1)}% of ${window!.toLocaleString("en-US")})`;
  return `turn  line ${turn.line}: ${turn.contextTokens.toLocaleString("en-US")} context tokens${of}`;
}

export async function runFollow(args: ParsedArgs, mode: Mode): Promise<number> {
  const path = args.positional[0];
  if (!path) throw new UsageError(`${mode} --follow needs a session file`);
  const interval = wholeNumberFlag(args, "interval", "milliseconds", 10) ?? DEFAULT_INTERVAL_MS;
  const json = args.flags.has("json");
  const follower = new FollowedFile({ format: formatFlag(args) });
  let turnsShown = 0;
  let compactionsShown = 0;
  let stopped = false;
  const stop = () => void (stopped = true);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const say = (line: string) => process.stdout.write(line + "\n");
  const note = (line: string) => process.stderr.write(`${path}: ${line}\n`);

  let inode: number;
  try {
    inode = statSync(path).ino;
  } catch {
    throw new UsageError(`cannot follow ${path}: no such file`);
  }
  note(`following (every ${interval} ms; Ctrl-C stops)`);

  /** What is new since the last look, in file order (a compaction between two turns is printed between them). */
  const show = async (session: Session) => {
    const leaf = session.defaultLeafId;
    const usage = session.usage(leaf);
    const out: { line: number; text: string }[] = usage.turns.slice(turnsShown).map((turn) => ({ line: turn.line, text: turnOutput(turn, usage.contextWindow, json) }));
    turnsShown = usage.turns.length;
    const recorded = session.recordedCompactions(leaf);
    if (recorded.length > compactionsShown) {
      if (mode === "inspect") {
        for (const c of recorded.slice(compactionsShown)) {
          const figures = { index: c.index, line: c.line, compactionKind: c.kind, trigger: c.trigger, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter };
          const text = json
            ? JSON.stringify({ kind: "compaction", ...figures })
            : `compaction #${c.index} line ${c.line} ${c.kind}: ${c.tokensBefore ?? "?"} → ${c.tokensAfter ?? "?"} tokens (the file's)`;
          out.push({ line: c.line, text });
        }
      } else {
        const audit = await auditSession(session, { leafId: leaf, reader: "literal" });
        for (const one of audit.compactions.slice(compactionsShown)) {
          const { kind, ...row } = compactionRow(one);
          out.push({ line: one.line, text: json ? JSON.stringify({ kind: "compaction", compactionKind: kind, ...row }) : `compaction ${compactionLine(one)}` });
        }
      }
      compactionsShown = recorded.length;
    }
    for (const item of out.sort((a, b) => a.line - b.line)) say(item.text);
  };

  while (!stopped) {
    let size: number;
    try {
      const stat = statSync(path);
      if (stat.ino !== inode) {
        note("replaced by another file under the same name; stopped following");
        break;
      }
      size = stat.size;
    } catch {
      note("the file is gone; stopped following");
      break;
    }
    const tail = follower.tailBytes;
    const rewritten = follower.check(size, size >= follower.offset ? readRange(path, follower.offset - tail.length, follower.offset) : new Uint8Array(0));
    if (rewritten?.kind === "rewritten") {
      note(`${rewritten.why}: reading it again from the start`);
      turnsShown = 0;
      compactionsShown = 0;
    }
    if (size > follower.offset) {
      const change = follower.append(readRange(path, follower.offset, size));
      if (change.kind === "grew") {
        try {
          await show(follower.session());
        } catch {
          // Not readable yet (a JSON value half written, no record yet): the next look tries again.
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (stopped) note("stopped");
  return 0;
}
