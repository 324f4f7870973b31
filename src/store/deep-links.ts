/** Deep links: #f=<sha prefix>&s=<strategy>&l=<leaf>&c=<compaction audited>&m=<message id>&k=<answer-key edits as JSON>. */
import type { KeyEdits } from "../../core/checkride/key-edits.ts";
import { get, set, type AppState, type DeepLink } from "./state.ts";

export function parseDeepLink(hash: string): DeepLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const link: DeepLink = {};
  for (const [key, field] of [
    ["f", "file"],
    ["m", "message"],
    ["s", "strategy"],
    ["l", "leaf"],
  ] as const) {
    const value = params.get(key);
    if (value) link[field] = value;
  }
  const compaction = Number(params.get("c"));
  if (Number.isInteger(compaction) && compaction >= 1) link.compaction = compaction;
  const edits = parseEdits(params.get("k"));
  if (edits) link.edits = edits;
  return link;
}

/** Edits from a hash, or undefined when absent or malformed (a hand-edited link must not break the page). */
export function parseEdits(value: string | null): KeyEdits | undefined {
  if (!value) return undefined;
  try {
    const raw = JSON.parse(value) as { s?: unknown; a?: unknown };
    const pairs = (list: unknown) =>
      Array.isArray(list) ? list.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === "string" && typeof p[1] === "string") : [];
    const edits = { struck: pairs(raw.s).map(([probe, fact]) => ({ probe, fact })), added: pairs(raw.a).map(([probe, text]) => ({ probe, text })) };
    return edits.struck.length || edits.added.length ? edits : undefined;
  } catch {
    return undefined;
  }
}

export function editsParam(edits: KeyEdits | undefined): string | null {
  if (!edits || (edits.struck.length === 0 && edits.added.length === 0)) return null;
  return JSON.stringify({ s: edits.struck.map((e) => [e.probe, e.fact]), a: edits.added.map((e) => [e.probe, e.text]) });
}

export function setPendingLink(link: DeepLink | null): void {
  set({ pendingLink: link && Object.keys(link).length > 0 ? link : null });
}

export function deepLinkHash(state: Pick<AppState, "session" | "strategy" | "leafId" | "selected" | "view"> & Partial<Pick<AppState, "checkride">>, messageId?: string): string {
  if (!state.session) return "";
  const params = new URLSearchParams();
  params.set("f", state.session.sha256.slice(0, 16));
  params.set("s", state.strategy);
  if (state.leafId) params.set("l", state.leafId);
  if (state.view?.audit) params.set("c", String(state.view.audit.index));
  if (messageId) params.set("m", messageId);
  const edits = editsParam(state.checkride?.edits);
  if (edits) params.set("k", edits);
  return "#" + params.toString();
}

export function writeDeepLink(): void {
  if (typeof window === "undefined" || !window.history) return;
  const state = get();
  // A link names its file by hash: none is written for a session whose hash is still being computed.
  if (!state.session?.sha256) return;
  const messageId = state.selected ? (state.detail?.[state.selected.pane] ?? state.detail?.active ?? state.detail?.original)?.id : undefined;
  const hash = deepLinkHash(state, messageId);
  if (hash && window.location.hash !== hash) window.history.replaceState(null, "", hash);
}
