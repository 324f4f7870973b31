/** What leaves the app: the checkpoint, and through the share panel the secret scan, the report and the masked checkpoint. */
import { chosenStrategies, client, get, messageOf, ready, set, viewId, type ShareState } from "./state.ts";

type Download = { blob: Blob; name: string };

export async function exportCheckpoint(): Promise<Download | null> {
  if (!ready()) return null;
  set({ busy: "Exporting…" });
  try {
    return await client().request({ type: "export", view: viewId() }).promise;
  } finally {
    set({ busy: null });
  }
}

export function setShare(changes: Partial<ShareState>): void {
  set((state) => ({ share: { ...state.share, ...changes } }));
}

export async function openShare(): Promise<void> {
  if (!ready()) return;
  setShare({ open: true, scanning: true, error: null });
  try {
    const findings = await client().request({ type: "scan", view: viewId() }).promise;
    const previous = get().share.masked;
    // Everything found is masked unless the user keeps it.
    setShare({ scanning: false, findings, masked: Object.fromEntries(findings.map((f) => [f.id, previous[f.id] ?? true])) });
  } catch (error) {
    setShare({ scanning: false, error: messageOf(error) });
  }
}

function maskedIds(): string[] {
  return Object.entries(get().share.masked)
    .filter(([, masked]) => masked)
    .map(([id]) => id);
}

/** Runs a download request with the share panel's busy line and error. */
async function shareDownload(busy: string, request: () => Promise<Download>): Promise<Download | null> {
  if (!ready()) return null;
  setShare({ busy, error: null });
  try {
    return await request();
  } catch (error) {
    setShare({ error: messageOf(error) });
    return null;
  } finally {
    setShare({ busy: null });
  }
}

export function downloadReport(format: "html" | "md"): Promise<Download | null> {
  return shareDownload(format === "html" ? "Writing the report…" : "Writing the scorecard…", () => {
    const memory = get().checkride.settings.memory ?? undefined;
    return client().request({ type: "report", view: viewId(), params: { strategies: chosenStrategies(), format, masked: maskedIds(), memory, edits: get().checkride.edits } })
      .promise;
  });
}

export function exportRedacted(): Promise<Download | null> {
  return shareDownload("Exporting…", () => client().request({ type: "exportRedacted", view: viewId(), masked: maskedIds() }).promise);
}
