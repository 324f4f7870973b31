/** The CLI's commands. Each returns its exit code; problems are thrown. */
import type { Checkpoint } from "../checkpoint.ts";
import { readCheckpoint, verifyCheckpointFile } from "./checkpoint-file.ts";
import { checkPreviousCheckpoint, matchPreviousSource, refusePreviousFor } from "./previous.ts";
import { compactSession } from "../compact.ts";
import { streamableEntries } from "../compact-stream.ts";
import { compactFileStreamed } from "./compact-file.ts";
import { checkpointPieces } from "../checkpoint-json.ts";
import { checkrideSession } from "../evaluate/evaluate.ts";
import type { CheckrideResult } from "../checkride/run.ts";
import { readerHeading, VERDICT_LABELS, verdictSummary } from "../checkride/verdict.ts";
import { loadLocalModel } from "./local-model.ts";
import { runFollow } from "./follow.ts";
import { deriveDistractor, runRounds } from "../evaluate/rounds.ts";
import { sessionCwd } from "../session-info.ts";
import { inspectSession } from "../inspect.ts";
import { loadTokenizer } from "../tokens.ts";
import { redactCheckpoint, scanMessages, type Finding } from "../redact.ts";
import { htmlPieces } from "../report/html.ts";
import { keepSerializedViews } from "../serialized.ts";
import { renderMarkdown } from "../report/markdown.ts";
import { buildReport } from "../report/model.ts";
import { UsageError, endpointFlags, leafFlag, readerFlags, strategyFlag, strategyList, stringFlag, wholeNumberFlag, type ParsedArgs } from "./flags.ts";
import { memoryFlag, readSessionFile } from "./input.ts";
import { refuseInputAsOutput, writeOutput } from "./output.ts";
import { basename } from "node:path";

export async function runInspect(args: ParsedArgs): Promise<number> {
  if (args.flags.has("follow")) return runFollow(args, "inspect");
  const { session } = readSessionFile(args);
  await loadTokenizer();
  writeOutput(JSON.stringify(inspectSession(session, leafFlag(args, session)), null, 2), undefined);
  for (const warning of session.warnings.slice(0, 20)) process.stderr.write(`warning: ${args.positional[0]}:${warning.line}: ${warning.message}\n`);
  return 0;
}

/**
 * `compact` counts the view's tokens only when asked (`--token-counts`): the count is most of a
 * compaction's time (docs/performance.md), so the default is the compaction alone.
 * `--no-token-counts`, the default since then, is still accepted.
 */
function countsTokens(args: ParsedArgs): boolean {
  if (args.flags.has("token-counts") && args.flags.has("no-token-counts")) throw new UsageError("--token-counts and --no-token-counts contradict each other");
  return args.flags.has("token-counts");
}

export async function runCompact(args: ParsedArgs): Promise<number> {
  // The checkpoint is written as soon as it is made: its active view's JSON is worth keeping until then
  // (the other commands make views they never write, and keep them longer).
  keepSerializedViews(true);
  refuseInputAsOutput(stringFlag(args, "output"), [args.positional[0], stringFlag(args, "previous")]);
  const strategyName = strategyFlag(args, "transparent");
  const options: Record<string, unknown> = {};
  const cap = wholeNumberFlag(args, "max-prose-characters", "characters");
  if (cap !== undefined) options.maxProseChars = cap;
  // The earlier checkpoint is checked whole before the session is read; the session's read also
  // hashes its first bytes, to tell a grown file from another one.
  const previousFile = stringFlag(args, "previous");
  let previous: Checkpoint | undefined;
  if (previousFile) {
    refusePreviousFor(strategyName);
    previous = readCheckpoint(previousFile);
    await checkPreviousCheckpoint(previousFile, previous);
  }
  // A transparent compaction that needs no more than one message at a time (no cap, no earlier checkpoint,
  // no redaction, which scans the whole branch first) reads the file for its outline only, then again for
  // its messages: memory then grows with the number of records, not with their size (core/compact-stream.ts).
  const streamable = strategyName === "transparent" && cap === undefined && !previous && !args.flags.has("redact");
  const read = readSessionFile(args, undefined, { prefixBytes: previous?.source.bytes, outline: streamable });
  if (read.outlined) {
    const leafId = leafFlag(args, read.session);
    const entries = streamableEntries(read.session, leafId);
    if (entries) {
      const source = { name: basename(read.file), bytes: read.bytes, sha256: read.sha256 };
      await compactFileStreamed(read.file, { outline: read.session, source, entries, leafId, countTokens: countsTokens(args) }, stringFlag(args, "output"));
      return 0;
    }
  }
  // Otherwise the whole session (an outline is read again, whole: its tree was repaired, so its branch is not in file order).
  const { file, bytes, sha256, session, prefixSha256 } = read.outlined ? readSessionFile(args) : read;
  if (previous) {
    const note = matchPreviousSource(previousFile!, previous, { bytes, sha256, format: session.format, prefixSha256 });
    if (note) process.stderr.write(`note: ${note}\n`);
  }
  const checkpoint = await compactSession(
    session,
    { name: basename(file), bytes, sha256 },
    {
      strategy: strategyName,
      options,
      leafId: leafFlag(args, session),
      previous,
      endpoint: endpointFlags(args),
      countTokens: countsTokens(args),
      cacheTokenCounts: false,
    },
    (message) => process.stderr.write(`warning: ${message}\n`),
  );
  if (args.flags.has("redact")) {
    const findings = scanMessages(session.branch(checkpoint.source.leafId));
    const masked = chooseRedactions(args, findings);
    process.stderr.write(describeFindings(findings, masked) + "\n");
    writeOutput(checkpointPieces(await redactCheckpoint(checkpoint, masked)), stringFlag(args, "output"));
    return 0;
  }
  writeOutput(checkpointPieces(checkpoint), stringFlag(args, "output"));
  return 0;
}

export async function runCheckrideCommand(args: ParsedArgs): Promise<number> {
  const { session } = readSessionFile(args);
  const strategy = stringFlag(args, "strategy") ?? "all";
  const strategies = strategy === "all" ? "all" : [strategyFlag(args, "all")];
  const { reader, endpoint, local } = readerFlags(args);
  const leafId = leafFlag(args, session);
  const localModel = local ? await loadLocalModel(local.modelPath, local) : undefined;
  let results: CheckrideResult[];
  try {
    results = await checkrideSession(session, {
      strategies,
      leafId,
      checkride: { reader, memory: memoryFlag(args), endpoint, localModel, onLocalProgress: localModel ? printLocalProgress : undefined },
      summaryEndpoint: endpoint,
    });
  } finally {
    await localModel?.dispose();
  }
  if (args.flags.has("json")) {
    writeOutput(
      JSON.stringify(
        {
          results: results.map(({ scoreLabel: _label, ...rest }) => ({
            ...rest,
            probes: rest.probes.map(({ id, status, question, expected, answer, evidence, candidates, verdict, ms, note }) => ({
              id,
              status,
              question,
              expected,
              answer,
              evidence,
              ...(candidates ? { candidates: candidates.map(({ text, why }) => ({ text, why })) } : {}),
              ...(verdict ? { verdict } : {}),
              ...(ms !== undefined ? { ms } : {}),
              ...(status === "inconclusive" && note ? { note } : {}),
            })),
          })),
        },
        null,
        2,
      ),
      undefined,
    );
  } else {
    const lines: string[] = [];
    for (const result of results) {
      if (result.needsModel) {
        lines.push(`${result.strategy}: skipped (${result.needsModel})`);
        continue;
      }
      const verdicts = verdictSummary(result.verdicts);
      lines.push(`${result.strategy}: ${result.passed}/${result.asked} ${readerHeading(result)}${verdicts ? `; ${verdicts}` : ""}`);
      for (const probe of result.probes) {
        const detail = probe.status === "skipped" || probe.status === "inconclusive" ? (probe.note ?? "") : (probe.expected ?? "");
        const verdict = probe.verdict ? ` [${VERDICT_LABELS[probe.verdict]}${probe.ms !== undefined ? `, ${(probe.ms / 1000).toFixed(1)} s` : ""}]` : "";
        lines.push(`  ${probe.status.padEnd(12)} ${probe.id.padEnd(12)} ${detail.replace(/\s+/g, " ").slice(0, 160)}${verdict}`);
        if (probe.candidates?.length) lines.push(...candidateLines(probe.candidates));
      }
    }
    writeOutput(lines.join("\n"), undefined);
  }
  return 0;
}

/** The local model's progress on stderr (stdout stays the result). */
function printLocalProgress(step: { strategy: string; done: number; total: number; promptTokens: number; ms: number }): void {
  process.stderr.write(`${step.strategy}: probe ${step.done}/${step.total} (${step.promptTokens.toLocaleString("en-US")} prompt tokens, ${(step.ms / 1000).toFixed(1)} s)\n`);
}

const CANDIDATES_LISTED = 5;

/** A probe's candidates under it: not graded, with why, so the user can add the right ones with the app. */
function candidateLines(candidates: readonly { text: string; why: string }[]): string[] {
  const pad = " ".repeat(27);
  const lines = [`${pad}${candidates.length} candidate${candidates.length === 1 ? "" : "s"}, not graded:`];
  for (const c of candidates.slice(0, CANDIDATES_LISTED)) lines.push(`${pad}? ${c.text.replace(/\s+/g, " ").slice(0, 120)} (${c.why})`);
  if (candidates.length > CANDIDATES_LISTED) lines.push(`${pad}… and ${candidates.length - CANDIDATES_LISTED} more (--json lists them all)`);
  return lines;
}

/** Repeated compaction: N rounds per strategy, scored by the checkride; optionally with a planted fact. */
export async function runRoundsCommand(args: ParsedArgs): Promise<number> {
  const { session } = readSessionFile(args);
  const rounds = wholeNumberFlag(args, "rounds", "rounds", 1) ?? 4;
  // The recorded compaction is what the file holds: it has no rounds of its own.
  const names = strategyList(args, "all", ["recorded"]);
  const plantText = stringFlag(args, "plant");
  const plantAt = wholeNumberFlag(args, "plant-at", "messages");
  const leaf = leafFlag(args, session);
  const branch = session.branch(leaf);
  const plant = plantText ? { text: plantText, at: plantAt ?? Math.floor(branch.length / 4), distractor: stringFlag(args, "distractor") } : undefined;
  const results = await runRounds(branch, names, rounds, { reader: "literal", plant, context: { cwd: sessionCwd(session) } });
  writeOutput(JSON.stringify({ rounds, plant: plant ? { ...plant, distractor: plant.distractor ?? deriveDistractor(plant.text) } : null, results }, null, 2), undefined);
  return 0;
}

/** Secrets found on the branch, and which of them to mask (all, unless --keep names some or --no-redact). */
function chooseRedactions(args: ParsedArgs, findings: Finding[]): Finding[] {
  if (args.flags.has("no-redact")) return [];
  const keep = new Set(
    (stringFlag(args, "keep") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return findings.filter((f) => !keep.has(f.id));
}

function describeFindings(findings: Finding[], masked: Finding[]): string {
  if (findings.length === 0) return "scan: no secrets found";
  const maskedIds = new Set(masked.map((f) => f.id));
  return [
    `scan: ${findings.length} possible secret(s); ${masked.length} masked`,
    ...findings.map((f) => `  ${maskedIds.has(f.id) ? "masked" : "KEPT  "} ${f.id.padEnd(20)} ${f.preview} · ${f.occurrences}× in ${f.messageIds.length} message(s)`),
  ].join("\n");
}

/** `scan`: what the redaction would mask, as JSON (values shown only as previews). */
export function runScan(args: ParsedArgs): number {
  const { session } = readSessionFile(args);
  const findings = scanMessages(session.branch(leafFlag(args, session)));
  writeOutput(JSON.stringify({ findings: findings.map(({ value: _value, ...rest }) => rest) }, null, 2), undefined);
  return 0;
}

/** `report`: the HTML audit report (or, with --format md, the Markdown scorecard), redacted unless told otherwise. */
export async function runReport(args: ParsedArgs): Promise<number> {
  // Here --format is the report's format; the session's format is always detected.
  const output = stringFlag(args, "format") ?? "html";
  if (output !== "html" && output !== "md") throw new UsageError(`--format is html or md for a report (got "${output}")`);
  const sessionArgs: ParsedArgs = { ...args, flags: new Map([...args.flags].filter(([k]) => k !== "format")) };
  refuseInputAsOutput(stringFlag(args, "output"), [args.positional[0], stringFlag(args, "memory")]);
  const { file, bytes, sha256, session } = readSessionFile(sessionArgs);
  const strategies = strategyList(args, "all");
  const leafId = leafFlag(args, session);
  const findings = scanMessages(session.branch(leafId));
  const masked = chooseRedactions(args, findings);
  process.stderr.write(describeFindings(findings, masked) + "\n");
  const { reader, endpoint, local } = readerFlags(sessionArgs);
  const localModel = local ? await loadLocalModel(local.modelPath, local) : undefined;
  let report: Awaited<ReturnType<typeof buildReport>>;
  try {
    report = await buildReport(
      session,
      { name: basename(file), bytes, sha256 },
      { strategies, leafId, redact: masked, memory: memoryFlag(args), reader: { reader, endpoint, localModel } },
    );
  } finally {
    await localModel?.dispose();
  }
  // The HTML goes to the file a piece at a time: a 1 GB session's report is past the string limit.
  writeOutput(output === "md" ? renderMarkdown(report) : htmlPieces(report), stringFlag(args, "output"));
  return 0;
}

export async function runVerify(args: ParsedArgs): Promise<number> {
  const file = args.positional[0];
  if (!file) throw new UsageError("verify needs a checkpoint file");
  // Read and checked entry by entry: the archive's payloads are never all in memory.
  const { payloads, problems } = await verifyCheckpointFile(file);
  for (const problem of problems) process.stderr.write(`mismatch: ${problem.id}: ${problem.reason}\n`);
  writeOutput(JSON.stringify({ file, payloads, mismatches: problems.length, ok: problems.length === 0 }), undefined);
  return problems.length === 0 ? 0 : 1;
}
