/**
 * What leaves the app as a file: the checkpoint, the secret scan's findings
 * (previews only; the values stay in the worker), the masked checkpoint and
 * the audit report or scorecard.
 */
import { checkpointPieces } from "../../../core/checkpoint-json.ts";
import { withTokenStats } from "../../../core/compact.ts";
import { redactCheckpoint, scanMessages, type Finding } from "../../../core/redact.ts";
import { htmlPieces } from "../../../core/report/html.ts";
import { renderMarkdown } from "../../../core/report/markdown.ts";
import { buildReport } from "../../../core/report/model.ts";
import { downloadName } from "../../file-names.ts";
import type { FindingView, ReportParams, ResponseMap } from "../protocol.ts";
import type { Screen } from "../screen.ts";
import { readMemory } from "./evaluate.ts";

type Download = { blob: Blob; name: string };

/** With the token stats `compact --token-counts` writes: the app's export and that checkpoint are the same bytes. */
export async function exportCheckpoint({ loaded, view }: Screen): Promise<Download> {
  const checkpoint = await withTokenStats(view.checkpoint, loaded.session);
  return {
    blob: new Blob([...checkpointPieces(checkpoint)], { type: "application/json" }),
    name: downloadName(checkpoint.source.name, checkpoint.strategy.name, "checkpoint", "json"),
  };
}

/** Possible secrets on the branch on screen, scanned once per branch. */
function findings({ loaded, view }: Screen): Finding[] {
  const leafId = view.summary.leafId;
  let found = loaded.findings.get(leafId);
  if (!found) loaded.findings.set(leafId, (found = scanMessages(loaded.session.branch(leafId))));
  return found;
}

function maskedFindings(screen: Screen, maskedIds: readonly string[]): Finding[] {
  const masked = new Set(maskedIds);
  return findings(screen).filter((f) => masked.has(f.id));
}

export function scan(screen: Screen): FindingView[] {
  return findings(screen).map(({ value: _value, ...view }) => view);
}

export async function exportRedacted(screen: Screen, maskedIds: readonly string[]): Promise<ResponseMap["exportRedacted"]> {
  const checkpoint = await withTokenStats(screen.view.checkpoint, screen.loaded.session);
  const redacted = await redactCheckpoint(checkpoint, maskedFindings(screen, maskedIds));
  return {
    blob: new Blob([...checkpointPieces(redacted)], { type: "application/json" }),
    name: downloadName(checkpoint.source.name, checkpoint.strategy.name, "redacted", "checkpoint", "json"),
  };
}

export async function report(screen: Screen, params: ReportParams): Promise<Download> {
  const { loaded, view } = screen;
  const { summary } = loaded;
  // The strategy on screen first: it is the one the side-by-side view shows.
  const strategies = [view.summary.strategy, ...params.strategies.filter((s) => s !== view.summary.strategy)];
  const data = await buildReport(
    loaded.session,
    { name: summary.name, bytes: summary.bytes, sha256: summary.sha256 },
    {
      strategies,
      leafId: view.summary.leafId,
      strategyOptions: view.summary.options,
      redact: maskedFindings(screen, params.masked),
      memory: await readMemory(params.memory),
      edits: params.edits,
    },
  );
  return params.format === "md"
    ? { blob: new Blob([renderMarkdown(data)], { type: "text/markdown" }), name: downloadName(summary.name, "scorecard", "md") }
    : // In pieces, as the CLI writes it: a report past V8's string limit still becomes a file.
      { blob: new Blob([...htmlPieces(data)], { type: "text/html" }), name: downloadName(summary.name, "audit", "html") };
}
