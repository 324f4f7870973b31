/**
 * The token figures of the stats bar: model-view tokens of the original and
 * active context (o200k, estimates labelled until the worker's count
 * finishes), and the file's own recorded input at its last turn beside the
 * model-view count of that same context, with the difference explained.
 */
import { useCallback, useRef, useState, type ReactNode } from "react";
import type { ViewTokenFigures } from "../../worker/protocol.ts";
import { useDismiss } from "../dismiss.ts";
import { GLOSSARY } from "../glossary.ts";
import { formatCount } from "../format.ts";

const TOKENS_EXPLAINER =
  "Tokens of the model's view: what the model receives of each message (text, tool calls and results, markers, summaries; no harness metadata), counted with the o200k tokenizer. Claude's own tokenizer differs by a few percent.";

/** "12,345 o200k tokens", or "≈12,345 tokens (estimate)" while part of it is chars ÷ 4. */
export function TokenCount({ tokens, estimated, testId }: { tokens: number; estimated: number; testId: string }) {
  if (estimated > 0) {
    return (
      <span title={`${formatCount(estimated)} of these tokens are estimated as characters ÷ 4 while the worker finishes counting with o200k.`}>
        ≈
        <span data-testid={testId} data-estimated="true">
          {formatCount(tokens)}
        </span>{" "}
        tokens <em className="dim">(estimate, counting…)</em>
      </span>
    );
  }
  return (
    <span title={TOKENS_EXPLAINER}>
      <span data-testid={testId} data-estimated="false">
        {formatCount(tokens)}
      </span>{" "}
      <abbr className="explain" title={GLOSSARY.o200k}>
        o200k tokens
      </abbr>
    </span>
  );
}

/** The notes popover: it floats over the panes, and closes on Esc or a press anywhere outside it. */
function UsageWhy({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDetailsElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss({ open, ref, onDismiss: close, escape: true });
  return (
    <details className="usage-why" data-testid="usage-why" ref={ref} open={open}>
      <summary
        onClick={(event) => {
          event.preventDefault();
          setOpen(!open);
        }}
      >
        {label}
      </summary>
      <div className="usage-why-body">{children}</div>
    </details>
  );
}

/** The file's last recorded turn against the model's view of the same context; the window where the file states it. */
export function RecordedUsage({ figures }: { figures: ViewTokenFigures }) {
  const usage = figures.usage;
  if (!usage) return <dd className="dim">counting the model's view of the last turn…</dd>;
  const window = usage.contextWindow;
  const last = usage.last;
  const windowText =
    window !== null ? (
      <>
        {last ? `, ${((last.recorded / window) * 100).toFixed(0)}% of` : " ·"} a <span data-testid="stats-context-window">{formatCount(window)}</span>-token window (stated in the
        file)
      </>
    ) : (
      <span className="dim" data-testid="stats-context-window" data-stated="false">
        {" "}
        · window not stated in the file
      </span>
    );
  if (!last) {
    return (
      <dd>
        <span className="dim">the file records no token usage</span>
        {windowText}
      </dd>
    );
  }
  const split = `input ${formatCount(last.input)} + cache read ${formatCount(last.cacheRead)} + cache write ${formatCount(last.cacheWrite)}`;
  return (
    <dd>
      <span title={`The file's own usage record on line ${last.line}: ${split}.`}>
        file: <span data-testid="stats-recorded-input">{formatCount(last.recorded)}</span> tokens in
      </span>
      {windowText} · model's view of the same context: <span data-testid="stats-lastturn-view">{formatCount(last.modelView)}</span>{" "}
      {/* Why the two figures differ, and the notes on the file's figures, open on demand: the header stays short. */}
      <UsageWhy
        label={`${last.recorded >= last.modelView ? "why the file's is higher" : "why the view's is higher"}${usage.notes.length > 0 ? ` · ${usage.notes.length} note${usage.notes.length > 1 ? "s" : ""}` : ""}`}
      >
        <p className="stats-why" data-testid="stats-usage-explainer">
          {differenceLine(last.recorded, last.modelView, usage.notInTranscriptAtFirstTurn)}
        </p>
        {usage.notes.length > 0 ? (
          <ul className="usage-notes">
            {usage.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
      </UsageWhy>
    </dd>
  );
}

function differenceLine(recorded: number, view: number, firstTurnGap: number | null): string {
  const gap = recorded - view;
  if (gap >= 0) {
    const first = firstTurnGap !== null && firstTurnGap > 0 ? ` (≈${formatCount(firstTurnGap)} at the first turn)` : "";
    return `The file's figure is ${formatCount(gap)} higher: it includes the system prompt and tool definitions, which are not in the transcript${first}.`;
  }
  return `The model view counts ${formatCount(-gap)} more than the file records: the tokenizers differ, or the file's usage for that turn is incomplete (Claude Code zeroes usage on messages carried over by a resume).`;
}
