/** Load progress, load errors, a crashed worker, lenient warnings, and the empty state. */
import { cancelLoad, dismissLoadError, retryAfterCrash, setShowWarnings, useApp } from "../store/store.ts";
import { formatBytes } from "./format.ts";
import { oneLine } from "../../core/text.ts";

export function LoadProgress() {
  const loading = useApp((s) => s.loading);
  const busy = useApp((s) => s.busy);
  if (!loading && !busy) return null;
  if (!loading)
    return (
      <div className="banner info" role="status">
        {busy}
      </div>
    );
  const progress = loading.progress;
  const stage = progress?.stage ?? "reading";
  // Reading a local file is one call (nothing to count until it returns); parsing counts bytes.
  const counted = progress !== null && progress.total > 0 && progress.loaded > 0 && stage !== "compacting";
  const fraction = counted ? progress.loaded / progress.total : undefined;
  return (
    <div className="banner info" role="status" data-testid="load-progress">
      <span>
        Loading <strong>{loading.name}</strong>: {stage}
        {counted
          ? ` ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`
          : progress && progress.total > 0 && stage === "reading"
            ? ` ${formatBytes(progress.total)}…`
            : "…"}
      </span>
      <progress max={1} value={fraction} />
      <button type="button" className="small" onClick={cancelLoad}>
        Cancel
      </button>
    </div>
  );
}

export function LoadError() {
  const error = useApp((s) => s.loadError);
  const hasSession = useApp((s) => s.session !== null);
  if (!error) return null;
  return (
    <div className="banner error" role="alert" data-testid="load-error">
      <strong>Could not open {error.name || "the file"}</strong>
      {error.line ? ` (line ${error.line})` : ""}: {error.message}
      {hasSession ? <span className="dim"> · the previous session is still shown</span> : null}
      <button type="button" className="small" onClick={() => dismissLoadError()} aria-label="Dismiss the error">
        ×
      </button>
    </div>
  );
}

export function CrashBanner() {
  const crashed = useApp((s) => s.crashed);
  if (!crashed) return null;
  return (
    <div className="banner error" role="alert" data-testid="worker-crashed">
      The session worker stopped: {crashed}.{" "}
      <button type="button" className="small primary" onClick={retryAfterCrash}>
        Retry
      </button>
    </div>
  );
}

const NO_WARNINGS: never[] = [];
/** How much of a lone warning its line shows (the whole of it is one click away). */
const ONE_WARNING_CHARS = 220;

export function Warnings() {
  const warnings = useApp((s) => s.session?.warnings ?? NO_WARNINGS);
  const open = useApp((s) => s.showWarnings);
  if (warnings.length === 0) return null;
  return (
    <details className="warnings" open={open} onToggle={(e) => setShowWarnings((e.target as HTMLDetailsElement).open)}>
      <summary title={warnings.length === 1 ? warnings[0]!.message : undefined}>
        {/* One warning is read where it stands (a UI log alone, a Kiro save's transcript): what the file is not, said up front. */}
        {warnings.length === 1 ? (
          <>1 warning while reading: {oneLine(warnings[0]!.message, ONE_WARNING_CHARS)}</>
        ) : (
          `${warnings.length} warnings while reading (lenient mode kept going)`
        )}
      </summary>
      <ul>
        {warnings.slice(0, 500).map((warning, i) => (
          <li key={i}>
            {warning.line > 0 ? <span className="mono">line {warning.line}: </span> : null}
            {warning.message}
          </li>
        ))}
        {warnings.length > 500 ? <li>… and {warnings.length - 500} more</li> : null}
      </ul>
    </details>
  );
}

export function EmptyState() {
  return (
    <div className="empty-state">
      <h2>Open a coding agent's session</h2>
      <p>
        Drop a session anywhere on this window, or use <strong>Open session…</strong> (or <strong>Open folder…</strong> for a whole library): Pi, Claude Code (with its subagents),
        Codex (<code>.jsonl</code> or <code>.jsonl.zst</code>), Gemini CLI, GitHub Copilot CLI (<code>events.jsonl</code>), OpenCode (<code>opencode export</code>), Cline, Roo Code
        and Kilo Code task folders (or their <code>ui_messages.json</code> alone), Aider (<code>.aider.chat.history.md</code>), Qwen Code, Cursor agent transcripts, Kiro CLI chat
        saves, and OpenAI or Anthropic message arrays (<code>.json</code>). Everything stays on this machine: the file is read and compacted in a worker inside this page.
      </p>
    </div>
  );
}
