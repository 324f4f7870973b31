/**
 * Bytes → the neutral Session: decode, detect, read, build and validate the
 * tree, list leaves. The only entry point the worker and the CLI call.
 */
import { decodeSessionBytes } from "./decode.ts";
import { decompressZstd, isZstd } from "./zstd.ts";
import { readAnyFormat } from "./formats/detect.ts";
import { messagesOf, type BranchContext, type ReaderOutput } from "./formats/common.ts";
import type { Entry, FormatName, Message, Session } from "./model.ts";
import { SessionError } from "./model.ts";
import { buildTree, childlessEntries, pathTo } from "./tree.ts";

export interface LoadOptions {
  /** Override detection. */
  format?: FormatName;
  /** Reject problems instead of listing them as warnings (the CLI's --strict). */
  strict?: boolean;
}

export function loadSession(input: Uint8Array | string, options: LoadOptions = {}): Session {
  const text = typeof input === "string" ? stripBom(input) : decodeSessionBytes(isZstd(input) ? decompressZstd(input) : input);
  if (text.trim() === "") throw new SessionError(0, "the file is empty");
  const strict = options.strict ?? false;
  return sessionFromReader(readAnyFormat(text, { format: options.format, strict }), strict);
}

/** A reader's entries → the Session: the tree built and checked, the leaves listed, branches served. */
export function sessionFromReader(output: ReaderOutput, strict: boolean): Session {
  const warnings = output.warnings;
  const tree = buildTree(output.entries, strict, warnings);
  const context: BranchContext = { children: tree.children, byId: tree.byId };

  const candidates = childlessEntries(tree).filter((entry) => output.isLeafCandidate?.(entry) ?? true);
  let defaultLeafId = output.defaultLeafId !== null && tree.byId.has(output.defaultLeafId) ? output.defaultLeafId : null;
  if (defaultLeafId === null && candidates.length > 0) defaultLeafId = candidates[candidates.length - 1]!.id;
  const leaves = candidates.map((entry) => entry.id);
  if (defaultLeafId !== null && !leaves.includes(defaultLeafId)) leaves.push(defaultLeafId);

  const pathFor = (leafId: string | null): Entry[] => {
    const id = leafId ?? defaultLeafId;
    if (id === null) return [];
    if (!tree.byId.has(id)) throw new SessionError(0, `no entry with id "${id}"`);
    return pathTo(tree, id);
  };
  const branchCache = new Map<string, Message[]>();

  return {
    format: output.format,
    formatVersion: output.formatVersion,
    header: output.header,
    entries: tree.entries,
    byId: tree.byId,
    leaves,
    defaultLeafId,
    warnings,
    toolCallIds: output.toolCallIds,
    offTreeRecords: output.offTreeRecords,
    path: pathFor,
    branch(leafId) {
      const key = leafId ?? defaultLeafId ?? "";
      let messages = branchCache.get(key);
      if (!messages) {
        const path = pathFor(leafId);
        messages = output.branchMessages ? output.branchMessages(path, context) : messagesOf(path);
        branchCache.set(key, messages);
      }
      return messages;
    },
    branchEntries(leafId) {
      const path = pathFor(leafId);
      return output.branchEntries ? output.branchEntries(path, context) : path;
    },
    recordedContext(leafId) {
      return output.recorded(pathFor(leafId), context);
    },
    recordedCompactions(leafId) {
      return output.compactions ? output.compactions(pathFor(leafId), context) : [];
    },
    usage(leafId) {
      return output.usage ? output.usage(pathFor(leafId), context) : { turns: [], contextWindow: null, notes: [] };
    },
  };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
