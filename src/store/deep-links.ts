/** Deep links: #f=<sha prefix>&s=<strategy>&l=<leaf>&m=<message id>. */
import { get, set, type AppState, type DeepLink } from "./state.ts";

export function parseDeepLink(hash: string): DeepLink {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const link: DeepLink = {};
  for (const [key, field] of [["f", "file"], ["m", "message"], ["s", "strategy"], ["l", "leaf"]] as const) {
    const value = params.get(key);
    if (value) link[field] = value;
  }
  return link;
}

export function setPendingLink(link: DeepLink | null): void {
  set({ pendingLink: link && Object.keys(link).length > 0 ? link : null });
}

export function deepLinkHash(state: Pick<AppState, "session" | "strategy" | "leafId" | "selected" | "view">, messageId?: string): string {
  if (!state.session) return "";
  const params = new URLSearchParams();
  params.set("f", state.session.sha256.slice(0, 16));
  params.set("s", state.strategy);
  if (state.leafId) params.set("l", state.leafId);
  if (messageId) params.set("m", messageId);
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
