/**
 * The transparent strategy's work on one message at a time: what moves out
 * of it (planMessage), the archive entries of the moved payloads
 * (hashPayloads) and the markers that take their place (placeMarkers), with
 * the labels that keep a reader oriented. Shared by the strategy over a
 * whole branch (transparent.ts) and the CLI's streamed compaction
 * (core/compact-stream.ts), so both write the same bytes.
 */
import { truncate } from "../text.ts";
import type { ArchiveEntry } from "../checkpoint.ts";
import { recoveryId } from "../checkpoint.ts";
import type { PayloadDigest } from "../hash.ts";
import { payloadDigests } from "./payload-digests.ts";
import type { Block, Message, OmittedBlock, PayloadKind } from "../model.ts";
import { anchorsIn, errorLineOf } from "../signals.ts";
import { toolOutcome, type CallNames } from "../tool-info.ts";

/** A payload chosen to move out, waiting for its hash. */
export interface PendingPayload {
  /** Index of its message in the view being built. */
  messageIndex: number;
  blockIndex: number;
  messageId: string;
  path: string;
  kind: PayloadKind;
  payload: unknown;
  describe: (bytes: number) => string;
}

/**
 * The blocks a message keeps (its own array when nothing moves out), with
 * what moves out queued on `pending`. A result's whole output is one payload;
 * its first block stands in until the marker replaces it.
 */
export function planMessage(message: Message, messageIndex: number, calls: CallNames, pending: PendingPayload[]): Block[] {
  const { role, blocks } = message;
  if (role === "toolResult" || role === "bash") {
    // The whole output is one payload: it is read and recovered as a unit.
    if (blocks.length === 0 || blocks.every((b) => b.type === "omitted")) return blocks;
    const outcome = toolOutcome(message, calls);
    const kind: PayloadKind = role === "bash" ? "bashOutput" : "toolResult";
    const output = blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    pending.push({
      messageIndex,
      blockIndex: 0,
      messageId: message.id,
      path: "/blocks",
      kind,
      payload: blocks,
      describe: (bytes) => describeResult(outcome, role === "bash", bytes, output),
    });
    return [blocks[0]!]; // placeholder, replaced by the marker after hashing
  }
  let copy: Block[] | undefined;
  blocks.forEach((block, blockIndex) => {
    const kind = movedKind(block);
    if (!kind) return;
    copy ??= [...blocks];
    pending.push({
      messageIndex,
      blockIndex,
      messageId: message.id,
      path: `/blocks/${blockIndex}`,
      kind,
      payload: block,
      describe: (bytes) => describeBlock(block, bytes),
    });
  });
  return copy ?? blocks;
}

function movedKind(block: Block): PayloadKind | undefined {
  switch (block.type) {
    case "thinking":
      return "thinking";
    case "image":
      return "image";
    case "raw":
      return "raw";
    default:
      return undefined; // text, toolCall and earlier markers stay
  }
}

/**
 * Writes each pending payload's marker into its message of `active` (a copy
 * the caller owns). Returns activeChars − originalChars over them: each
 * marker replaces exactly one payload (a block, or a result's whole block
 * list `[…]`, which becomes `[marker]`), so a view's original length follows
 * from its active one without measuring the payloads a second time.
 */
export function placeMarkers(pending: readonly PendingPayload[], archive: readonly ArchiveEntry[], digests: readonly PayloadDigest[], active: readonly Message[]): number {
  let delta = 0;
  pending.forEach((item, i) => {
    const entry = archive[i]!;
    const marker: OmittedBlock = {
      type: "omitted",
      recoveryId: entry.id,
      sha256: entry.sha256,
      bytes: entry.bytes,
      kind: item.kind,
      label: item.describe(entry.bytes),
    };
    active[item.messageIndex]!.blocks[item.blockIndex] = marker;
    const markerLength = JSON.stringify(marker).length;
    delta += (item.path === "/blocks" ? markerLength + 2 : markerLength) - digests[i]!.jsonLength;
  });
  return delta;
}

export async function hashPayloads(pending: PendingPayload[]): Promise<{ archive: ArchiveEntry[]; digests: PayloadDigest[] }> {
  const digests = await payloadDigests(pending.map((item) => item.payload));
  const archive = pending.map((item, i) => ({
    id: recoveryId(item.messageId, item.path),
    sha256: digests[i]!.sha256,
    bytes: digests[i]!.bytes,
    kind: item.kind,
    messageId: item.messageId,
    path: item.path,
    payload: item.payload,
  }));
  return { archive, digests };
}

/**
 * The label keeps what a reader needs to stay oriented without the payload:
 * which tool, which call, error state and exit code, size; for a failure the
 * line that names it; and any anchors (error codes, SHAs, URLs, issue
 * numbers) the output mentions.
 */
function describeResult(outcome: ReturnType<typeof toolOutcome>, isBash: boolean, bytes: number, output: string): string {
  const name = isBash ? "bash" : (outcome.toolName ?? "tool");
  const head = isBash ? `bash output${outcome.command ? ` of \`${truncate(outcome.command, 60)}\`` : ""}` : `${name} result${outcome.callId ? ` (${outcome.callId})` : ""}`;
  const parts: string[] = [];
  if (outcome.isError !== undefined) parts.push(outcome.isError ? "error" : "ok");
  if (outcome.exitCode !== undefined) parts.push(`exit ${outcome.exitCode}`);
  parts.push(formatBytes(bytes));
  let label = `${head}: ${parts.join(", ")}`;
  const failed = outcome.isError === true || (outcome.exitCode !== undefined && outcome.exitCode !== 0);
  const errorLine = failed ? errorLineOf(output) : undefined;
  if (errorLine) label += `; says "${truncate(errorLine, LABEL_QUOTE)}"`;
  const anchors = anchorsIn(output.length > ANCHOR_SCAN ? output.slice(0, ANCHOR_SCAN / 2) + "\n" + output.slice(-ANCHOR_SCAN / 2) : output, LABEL_ANCHORS);
  if (anchors.length > 0) label += `; mentions ${anchors.join(", ")}`;
  return label;
}

const LABEL_QUOTE = 160;
const LABEL_ANCHORS = 4;
/** Anchors are looked for at both ends of long outputs only: labels stay cheap. */
const ANCHOR_SCAN = 20_000;

function describeBlock(block: Block, bytes: number): string {
  switch (block.type) {
    case "thinking":
      return `thinking, ${formatBytes(bytes)}`;
    case "image":
      return `${block.mimeType} image, ${formatBytes(bytes)}`;
    case "raw": {
      const value = block.value as { type?: unknown } | null;
      const type = value && typeof value === "object" && typeof value.type === "string" ? ` "${value.type}"` : "";
      return `unknown block${type}, ${formatBytes(bytes)}`;
    }
    default:
      return `${block.type}, ${formatBytes(bytes)}`;
  }
}

export function formatBytes(bytes: number): string {
  return `${bytes} bytes`;
}
