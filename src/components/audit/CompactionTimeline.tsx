/**
 * The compaction timeline: the session from start to end, the context size at
 * each turn (the file's own usage; otherwise the model-view size at each
 * compaction, labelled as an estimate), the context window as a line, and
 * each recorded compaction a drop marked #1, #2… with its score. Clicking a
 * mark (or Enter on it) audits that compaction.
 */
import { useEffect, useRef, useState } from "react";
import { assignLanes, chipWidthPx } from "./lanes.ts";
import { loadTimeline, openAudit, showStrategies, useApp, useAudit } from "../../store/store.ts";
import type { TimelineData } from "../../worker/protocol.ts";
import { formatCount } from "../format.ts";
import { compactTokens, kindLabel, scoreText, shortScore, fileTokensText } from "./labels.ts";

/** Chart height in px: the header stays short; the marks sit on the chart in lanes of LANE px. */
const HEIGHT = 44;
const LANE = 21;

function scaleOf(timeline: TimelineData) {
  const points = timeline.usage.turns.length ? timeline.usage.turns : timeline.estimate;
  const top = Math.max(1, timeline.usage.contextWindow ?? 0, ...points.map((p) => p.tokens), ...timeline.marks.map((m) => m.tokensBefore ?? 0)) * 1.08;
  const span = Math.max(1, timeline.lastLine - timeline.firstLine);
  return { points, x: (line: number) => Math.min(100, Math.max(0, ((line - timeline.firstLine) / span) * 100)), y: (tokens: number) => HEIGHT - (tokens / top) * HEIGHT };
}

export function CompactionTimeline() {
  const view = useApp((s) => s.view);
  const serial = useApp((s) => s.sessionSerial);
  const revision = useApp((s) => s.sessionRevision);
  const timeline = useAudit((s) => s.timeline);
  const error = useAudit((s) => s.error);
  const audits = useAudit((s) => s.audits);
  const opening = useAudit((s) => s.opening);
  const busy = useApp((s) => s.busy);
  const ready = view !== null && !view.pending;
  // The chart's width in pixels, for the chips' lanes (ResizeObserver: it changes with the window).
  const chartRef = useRef<HTMLDivElement>(null);
  const [chartWidth, setChartWidth] = useState(900);
  useEffect(() => {
    const element = chartRef.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => entry && setChartWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
    // The chart is drawn once the timeline is in: observe it then.
  }, [timeline]);

  useEffect(() => {
    if (ready) void loadTimeline();
  }, [ready, serial, revision, view?.leafId]);

  if (!view) return null;
  if (error)
    return (
      <div className="timeline timeline-empty" data-testid="compaction-timeline">
        Timeline unavailable: {error}
      </div>
    );
  if (!timeline)
    return (
      <div className="timeline timeline-empty" data-testid="compaction-timeline" aria-busy="true">
        Reading the file's compactions and usage…
      </div>
    );
  const { marks, usage } = timeline;
  if (marks.length === 0 && usage.turns.length === 0) {
    return (
      <div className="timeline timeline-empty" data-testid="compaction-timeline">
        This file records no compactions and no token usage: nothing to chart.{timeline.unrecorded ? ` ${timeline.unrecorded}` : ""}
      </div>
    );
  }
  const { points, x, y } = scaleOf(timeline);
  const recorded = usage.turns.length > 0;
  // One turn is a tick of its own (a line needs two points).
  const path =
    points.length === 1
      ? `M${Math.max(0, x(points[0]!.line) - 0.8).toFixed(2)},${y(points[0]!.tokens).toFixed(1)} L${Math.min(100, x(points[0]!.line) + 0.8).toFixed(2)},${y(points[0]!.tokens).toFixed(1)}`
      : points.map((p, i) => `${i ? "L" : "M"}${x(p.line).toFixed(2)},${y(p.tokens).toFixed(1)}`).join(" ");
  const auditing = view.audit?.index ?? null;
  // Marks close together go on separate lanes so that each chip stays readable and clickable: each chip's
  // width comes from its label at the chart's measured width, so none overlaps another at any window size.
  const chipLabel = (m: (typeof marks)[number]) => {
    const figure =
      m.tokensBefore !== null && m.tokensAfter !== null
        ? m.kind === "claude-microcompact"
          ? ` −${compactTokens(m.tokensBefore - m.tokensAfter)} cleared`
          : ` ${compactTokens(m.tokensBefore)}→${compactTokens(m.tokensAfter)}`
        : "";
    return `#${m.index} ${shortScore(audits[m.index])}${figure}`;
  };
  const lanes = assignLanes(marks.map((m) => ({ at: x(m.line), width: (chipWidthPx(chipLabel(m)) / Math.max(1, chartWidth)) * 100, toLeft: x(m.line) > 85 })));
  const laneCount = lanes.length ? Math.max(...lanes) + 1 : 0;
  return (
    <section className="timeline" data-testid="compaction-timeline" aria-label="Compaction timeline">
      <div className="timeline-head">
        <div className="timeline-title">
          <strong title={marks.length === 0 ? (timeline.unrecorded ?? undefined) : undefined}>
            {marks.length
              ? `${marks.length} recorded ${marks.length === 1 ? "compaction" : "compactions"}`
              : timeline.unrecorded
                ? "No compactions recorded (this file cannot show them)"
                : "No recorded compactions"}
          </strong>
          {marks.length ? (
            <span className="mode-switch" role="group" aria-label="What the panes show">
              <button
                type="button"
                className="small"
                aria-pressed={auditing !== null}
                disabled={auditing !== null || busy !== null}
                onClick={() => void openAudit(marks.at(-1)!.index)}
              >
                Recorded compactions
              </button>
              <button type="button" className="small" aria-pressed={auditing === null} disabled={auditing === null || busy !== null} onClick={() => void showStrategies()}>
                Strategies
              </button>
            </span>
          ) : null}
        </div>
        <span className="dim timeline-caption">
          {recorded ? "context per turn: the file's usage (input + cache tokens)" : `context at each compaction: estimated (${timeline.unit}, the model's view)`}
          {usage.contextWindow ? ` · window ${formatCount(usage.contextWindow)} (the file's)` : ""}
        </span>
        {/* Said where it is read, not only on hover: "none recorded" is not "the agent never compacted". */}
        {marks.length === 0 && timeline.unrecorded ? <p className="dim timeline-unrecorded">{timeline.unrecorded}</p> : null}
      </div>
      <div className="timeline-chart" ref={chartRef} style={{ height: Math.max(HEIGHT, 2 + laneCount * LANE) }}>
        <svg viewBox={`0 0 100 ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
          {usage.contextWindow ? <line className="timeline-window" x1="0" x2="100" y1={y(usage.contextWindow)} y2={y(usage.contextWindow)} /> : null}
          {path ? <path className={recorded ? "timeline-usage" : "timeline-usage estimate"} d={path} vectorEffect="non-scaling-stroke" /> : null}
          {marks.map((m) => (
            <line
              key={m.index}
              className={`timeline-drop${m.index === auditing ? " current" : ""}`}
              x1={x(m.line)}
              x2={x(m.line)}
              y1="0"
              y2={HEIGHT}
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
        {marks.map((m, i) => {
          const entry = audits[m.index];
          const figures = fileTokensText(m.kind, m.tokensBefore, m.tokensAfter) ?? `estimated ${formatCount(m.size.before)} → ${formatCount(m.size.after)} (${m.size.unit})`;
          return (
            <button
              key={m.index}
              type="button"
              // The label stands right of its drop, or left of it near the end, so the drop itself stays visible.
              className={`timeline-mark${m.index === auditing ? " current" : ""}${x(m.line) > 85 ? " to-left" : ""}`}
              style={{ left: `${x(m.line)}%`, top: 2 + lanes[i]! * LANE }}
              data-compaction-index={m.index}
              aria-pressed={m.index === auditing}
              disabled={opening !== null}
              title={`Compaction #${m.index}: ${kindLabel(m.kind)}${m.trigger ? `, ${m.trigger}` : ""} · ${figures} · ${scoreText(entry)} · ${formatCount(m.dropped)} messages left the context`}
              onClick={() => void openAudit(m.index)}
            >
              #{m.index} <span className="timeline-score">{shortScore(entry)}</span>
              {m.tokensBefore !== null && m.tokensAfter !== null ? (
                <span className="timeline-drop-figure">
                  {" "}
                  {/* A microcompact's figures are not the context's size: its mark says what it cleared. */}
                  {m.kind === "claude-microcompact"
                    ? `−${compactTokens(m.tokensBefore - m.tokensAfter)} cleared`
                    : `${compactTokens(m.tokensBefore)}→${compactTokens(m.tokensAfter)}`}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
    </section>
  );
}
