/**
 * Views already built for the loaded session, by what made them (strategy,
 * branch, options): switching back to one is instant. Only first-round views
 * made without a model are kept (those are deterministic), a few per session.
 * A view's geometry is transferred to the page (its buffers detach), so the
 * cache keeps its own copy and every reuse sends a fresh one.
 */
import type { CompactParams, PaneGeometry, ViewSummary } from "./protocol.ts";
import type { LoadedSession, View } from "./view.ts";

const PER_SESSION = 4;

function copyGeometry(geometry: PaneGeometry): PaneGeometry {
  return { ...geometry, heights: geometry.heights.slice(), roles: geometry.roles.slice(), flags: geometry.flags.slice(), aligned: geometry.aligned.slice() };
}

function copySummary(summary: ViewSummary, id: number): ViewSummary {
  return { ...summary, id, original: copyGeometry(summary.original), active: copyGeometry(summary.active) };
}

/** The key of a view made by `params`, or undefined when it may not be reused. */
export function viewKey(params: Omit<CompactParams, "fromPrevious"> & { fromPrevious?: boolean }): string | undefined {
  if (params.fromPrevious || params.summaryEndpoint) return undefined;
  return JSON.stringify([params.strategy, params.leafId, params.options]);
}

export class ViewCache {
  private readonly bySession = new WeakMap<LoadedSession, Map<string, View>>();

  get(loaded: LoadedSession, key: string): View | undefined {
    const views = this.bySession.get(loaded);
    const view = views?.get(key);
    if (views && view) {
      // Most recently used last.
      views.delete(key);
      views.set(key, view);
    }
    return view;
  }

  /** Keeps `view` under `key`; call before its summary is sent (the copy is taken now). */
  put(loaded: LoadedSession, key: string, view: View): void {
    let views = this.bySession.get(loaded);
    if (!views) this.bySession.set(loaded, (views = new Map()));
    views.delete(key);
    views.set(key, { ...view, summary: copySummary(view.summary, view.summary.id) });
    while (views.size > PER_SESSION) views.delete(views.keys().next().value!);
  }
}

/** A cached view under a new id, with geometry of its own to transfer. */
export function reuseView(cached: View, id: number): View {
  return { ...cached, summary: copySummary(cached.summary, id) };
}
