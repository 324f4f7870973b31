/**
 * The session engine: everything the worker does, as plain methods so that it
 * runs unchanged in the Web Worker, in component tests and in Node. It owns
 * the session, the current checkpoint and the previous one; callers get
 * projections and ask for full content by row.
 */
import { diffWords } from "diff";
import { RecoveryError, recover } from "../../core/archive.ts";
import { checkpointPieces } from "../../core/checkpoint-json.ts";
import type { ArchiveEntry, Checkpoint } from "../../core/checkpoint.ts";
import { compactSession, withTokenStats } from "../../core/compact.ts";
import { fileSha256 } from "../../core/hash.ts";
import { SessionError, textOf, type Message, type Session } from "../../core/model.ts";
import { StreamingSessionLoader } from "../../core/session-stream.ts";
import { STRATEGIES } from "../../core/strategies/index.ts";
import { LOAD_COUNT_BUDGET_MS, composition } from "../../core/composition.ts";
import {
  buildPaneModel,
  displayBlocks,
  displayPayload,
  paneGeometry,
  projectRow,
  textSignature,
  type PaneModel,
} from "./projection.ts";
import { extractFacts } from "../../core/checkride/facts.ts";
import { redactCheckpoint, scanMessages, type Finding } from "../../core/redact.ts";
import { renderHtml } from "../../core/report/html.ts";
import { renderMarkdown } from "../../core/report/markdown.ts";
import { buildReport } from "../../core/report/model.ts";
import { deriveDistractor, runRounds } from "../../core/checkride/rounds.ts";
import { runCheckride, type CheckrideResult } from "../../core/checkride/run.ts";
import { checkrideTargets, factOptions, sessionCwd } from "../../core/checkride/session.ts";
import type {
  CheckrideParams,
  FindingView,
  RoundsParams,
  Request,
  CompactParams,
  DiffResult,
  LeafOption,
  LoadSource,
  MessageDetail,
  Pane,
  Progress,
  RecoveryResult,
  ResponseMap,
  RowProjection,
  SessionSummary,
  StrategyOption,
  ViewSummary,
} from "./protocol.ts";
import { ROW_PAGE_SIZE } from "./protocol.ts";

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
  }
}

export interface TaskContext {
  progress(progress: Progress): void;
  /** Throws CancelledError once the caller has cancelled this task. */
  checkCancelled(): void;
}

interface LoadedSession {
  session: Session;
  summary: SessionSummary;
}

interface View {
  checkpoint: Checkpoint;
  previous?: Checkpoint;
  round: number;
  original: PaneModel;
  active: PaneModel;
  archive: Map<string, ArchiveEntry>;
  /** active row → original row of the same message, and back. */
  activeToOriginal: Int32Array;
  originalToActive: Int32Array;
  differs: Uint8Array;
  summary: ViewSummary;
}

const SEARCH_CAP = 10_000;
const DIFF_GATE = 20_000;
const READ_CHUNK_REPORT = 1 << 20;
const PARSE_SLICE = 8 << 20;

/**
 * Hashes a local file somewhere else while this thread parses and compacts it
 * (WebCrypto digests on the calling thread: 0.5–0.7 s for 100 MB here).
 * `cancel` stops it; a result that fails is replaced by hashing here.
 */
export type FileHasher = (file: File) => { result: Promise<string>; cancel(): void };

export class SessionEngine {
  constructor(
    /** How the endpoint reader reaches the model (the worker proxies it through the page). */
    private readonly fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args),
    /** Where a local file is hashed in parallel; without one it is hashed here after the preview. */
    private readonly hashFile?: FileHasher,
  ) {}

  private loaded?: LoadedSession;
  private view?: View;
  /** The original pane of a session still being compacted; rows requests for it are answered at once. */
  private preview?: PaneModel;

  strategies(): StrategyOption[] {
    return STRATEGIES.map(({ name, label, description }) => ({ name, label, description }));
  }

  async load(source: LoadSource, params: Omit<CompactParams, "fromPrevious">, task: TaskContext): Promise<ResponseMap["load"]> {
    const started = performance.now();
    // JSON Lines are decoded and split into records slice by slice as the bytes come in
    // (a fetched demo as it downloads; a local file, after its one read, between cancel points).
    const loader = new StreamingSessionLoader();
    const { bytes, name } = await readSource(source, task, (chunk) => loader.push(chunk));
    const read = performance.now();
    task.checkCancelled();
    task.progress({ stage: "parsing", loaded: bytes.length, total: bytes.length });
    const session = loader.finish(bytes);
    task.checkCancelled();
    const leafId = params.leafId !== null && session.byId.has(params.leafId) ? params.leafId : session.defaultLeafId;
    const preview = buildPaneModel(session.branch(leafId));
    const timings = { readMs: Math.round(read - started), parseMs: Math.round(performance.now() - read) };
    // The first rows go out before the file's hash: on a worker WebCrypto digests on this very thread.
    const previewSummary = summarize(session, name, bytes.length, "", timings);
    this.preview = preview;
    let parallelHash: ReturnType<FileHasher> | undefined;
    try {
      task.progress({
        stage: "compacting",
        loaded: bytes.length,
        total: bytes.length,
        preview: {
          session: previewSummary,
          original: paneGeometry(preview, null, new Int32Array(preview.messages.length).fill(-1)),
          firstRows: this.rows("original", 0, ROW_PAGE_SIZE),
          strategy: params.strategy,
          leafId,
        },
      });
      // A local file is hashed on another thread while this one compacts (started only now:
      // during the read and the parse both threads would compete for the same cores);
      // anything else is hashed here.
      parallelHash = source.kind === "file" ? this.startParallelHash(source.file) : undefined;
      const sha256Here = parallelHash ? undefined : await fileSha256(bytes);
      task.checkCancelled();
      const view = await this.buildView(session, { ...previewSummary, sha256: sha256Here ?? "" }, { ...params, leafId }, undefined, 0, preview);
      task.checkCancelled();
      const sha256 = sha256Here ?? (await parallelHash!.result.catch(() => fileSha256(bytes)));
      task.checkCancelled();
      view.checkpoint.source.sha256 = sha256;
      const summary = { ...previewSummary, sha256 };
      // Only a complete load replaces the session the engine serves.
      this.loaded = { session, summary };
      this.view = view;
      return { session: summary, view: view.summary };
    } finally {
      parallelHash?.cancel();
      if (this.preview === preview) this.preview = undefined;
    }
  }

  /** The parallel hash, or undefined where it cannot start (no nested workers): then this thread hashes. */
  private startParallelHash(file: File): ReturnType<FileHasher> | undefined {
    try {
      const started = this.hashFile?.(file);
      // Awaited only after the compaction: a failure meanwhile must not count as unhandled.
      started?.result.catch(() => {});
      return started;
    } catch {
      return undefined;
    }
  }

  async compact(params: CompactParams): Promise<ViewSummary> {
    const loaded = this.requireLoaded();
    const previous = params.fromPrevious ? this.view?.checkpoint : undefined;
    const round = params.fromPrevious && this.view ? this.view.round + 1 : 0;
    this.view = await this.buildView(loaded.session, loaded.summary, params, previous, round);
    return this.view.summary;
  }

  rows(pane: Pane, start: number, end: number): RowProjection[] {
    const out: RowProjection[] = [];
    if (this.preview) {
      // A session is loading: its original pane is what the screen shows.
      if (pane === "original") for (let i = Math.max(0, start); i < Math.min(end, this.preview.messages.length); i++) out.push(projectRow(this.preview, i, -1, false));
      return out;
    }
    const view = this.requireView();
    const model = pane === "original" ? view.original : view.active;
    for (let i = Math.max(0, start); i < Math.min(end, model.messages.length); i++) out.push(this.project(view, pane, i));
    return out;
  }

  detail(pane: Pane, index: number, full: boolean): MessageDetail {
    const view = this.requireView();
    const message = (pane === "original" ? view.original : view.active).messages[index];
    if (!message) throw new Error(`no row ${index} in the ${pane} pane`);
    let meta: string;
    try {
      meta = JSON.stringify(message.meta, null, 2);
    } catch {
      meta = "(metadata cannot be shown)";
    }
    return { pane, index, id: message.id, role: message.role, meta, blocks: displayBlocks(message.blocks, full) };
  }

  async recover(recoveryId: string, full: boolean): Promise<RecoveryResult> {
    const view = this.requireView();
    const entry = view.archive.get(recoveryId);
    if (!entry) throw new Error(`no archived payload with id ${recoveryId}`);
    try {
      const recovered = await recover(view.archive, recoveryId);
      return {
        recoveryId,
        verified: true,
        expected: entry.sha256,
        found: recovered.sha256,
        bytes: recovered.bytes,
        kind: entry.kind,
        blocks: displayPayload(recovered.payload, full),
      };
    } catch (error) {
      if (!(error instanceof RecoveryError)) throw error;
      // The payload is not shown: it is not what was archived.
      return { recoveryId, verified: false, expected: error.expected, found: error.found, bytes: entry.bytes, kind: entry.kind, blocks: [], error: error.message };
    }
  }

  search(query: string): ResponseMap["search"] {
    const view = this.requireView();
    const needle = query.trim().toLowerCase();
    if (needle === "") return { original: [], active: [], total: 0, capped: false };
    let total = 0;
    const find = (messages: readonly Message[]): number[] => {
      const hits: number[] = [];
      for (let i = 0; i < messages.length && total < SEARCH_CAP; i++) {
        if (searchableText(messages[i]!).toLowerCase().includes(needle)) {
          hits.push(i);
          total++;
        }
      }
      return hits;
    };
    const original = find(view.original.messages);
    const active = find(view.active.messages);
    return { original, active, total, capped: total >= SEARCH_CAP };
  }

  diff(index: number, full: boolean): DiffResult {
    const view = this.requireView();
    const activeMessage = view.active.messages[index];
    if (!activeMessage) throw new Error(`no row ${index} in the active pane`);
    const sourceRow = view.activeToOriginal[index]!;
    const source = sourceRow >= 0 ? textOf(view.original.messages[sourceRow]!) : "";
    const active = textOf(activeMessage);
    const gated = !full && (source.length > DIFF_GATE || active.length > DIFF_GATE);
    const parts = gated ? [] : diffWords(source, active).map(({ value, added, removed }) => ({ value, added, removed }));
    return { index, parts, gated, sourceChars: source.length, activeChars: active.length };
  }

  async exportCheckpoint(): Promise<ResponseMap["export"]> {
    const view = this.requireView();
    const base = view.checkpoint.source.name.replace(/\.[^.]+$/, "");
    // With the token stats the CLI's compact writes: the two files are the same bytes.
    const checkpoint = await withTokenStats(view.checkpoint, this.requireLoaded().session);
    return {
      blob: new Blob([...checkpointPieces(checkpoint)], { type: "application/json" }),
      name: `${base}.${view.checkpoint.strategy.name}.checkpoint.json`,
    };
  }

  /** Every requested strategy on the current branch, the same facts for all; the current strategy uses the checkpoint on screen (its cap, its round). */
  async checkride(params: CheckrideParams): Promise<CheckrideResult[]> {
    const { session, summary } = this.requireLoaded();
    const view = this.requireView();
    const memory = params.memory === undefined ? undefined : typeof params.memory === "string" ? params.memory : await params.memory.text();
    const leafId = view.summary.leafId;
    const branch = session.branch(leafId);
    const cwd = sessionCwd(session);
    const facts = extractFacts(branch, factOptions(session, cwd, memory));
    const results: CheckrideResult[] = [];
    const endpoint = params.endpoint ? { ...params.endpoint, fetch: this.fetchImpl } : undefined;
    for (const name of params.strategies) {
      const checkpoint =
        name === view.checkpoint.strategy.name
          ? view.checkpoint
          : await compactSession(
              session,
              { name: summary.name, bytes: summary.bytes, sha256: summary.sha256 },
              { strategy: name, options: view.summary.options, leafId, endpoint: params.summaryEndpoint ? { ...params.summaryEndpoint, fetch: this.fetchImpl } : undefined },
            );
      for (const target of checkrideTargets(checkpoint)) results.push(await runCheckride(target.name, branch, target.active, { reader: params.reader, endpoint, memory, cwd }, facts));
    }
    return results;
  }

  /** Repeated compaction of the current branch, N rounds per strategy, literal checkride per round. */
  async rounds(params: RoundsParams): Promise<ResponseMap["rounds"]> {
    const { session } = this.requireLoaded();
    const view = this.requireView();
    const branch = session.branch(view.summary.leafId);
    const plant = params.plant && params.plant.text.trim() ? params.plant : undefined;
    const results = await runRounds(branch, params.strategies, params.rounds, {
      reader: "literal",
      strategyOptions: view.summary.options,
      plant,
      context: { cwd: sessionCwd(session) },
    });
    return { results, distractor: plant ? plant.distractor || deriveDistractor(plant.text) : null };
  }

  /** Possible secrets on the branch; the values stay here, the page gets previews. */
  scan(): FindingView[] {
    return this.findings().map(({ value: _value, ...view }) => view);
  }

  private findings(): Finding[] {
    const { session } = this.requireLoaded();
    const view = this.requireView();
    const key = `${view.summary.leafId}`;
    if (this.scanCache?.key !== key || this.scanCache.session !== session) this.scanCache = { key, session, findings: scanMessages(session.branch(view.summary.leafId)) };
    return this.scanCache.findings;
  }

  private scanCache?: { key: string; session: Session; findings: Finding[] };

  async report(params: { strategies: string[]; format: "html" | "md"; masked: string[]; memory?: File | string }): Promise<ResponseMap["report"]> {
    const { session, summary } = this.requireLoaded();
    const view = this.requireView();
    const masked = new Set(params.masked);
    const memory = params.memory === undefined ? undefined : typeof params.memory === "string" ? params.memory : await params.memory.text();
    // The strategy on screen first: it is the one the side-by-side view shows.
    const strategies = [view.summary.strategy, ...params.strategies.filter((s) => s !== view.summary.strategy)];
    const report = await buildReport(session, { name: summary.name, bytes: summary.bytes, sha256: summary.sha256 }, {
      strategies,
      leafId: view.summary.leafId,
      strategyOptions: view.summary.options,
      redact: this.findings().filter((f) => masked.has(f.id)),
      memory,
    });
    const base = summary.name.replace(/\.[^.]+$/, "");
    return params.format === "md"
      ? { blob: new Blob([renderMarkdown(report)], { type: "text/markdown" }), name: `${base}.scorecard.md` }
      : { blob: new Blob([renderHtml(report)], { type: "text/html" }), name: `${base}.audit.html` };
  }

  async exportRedacted(maskedIds: string[]): Promise<ResponseMap["exportRedacted"]> {
    const view = this.requireView();
    const masked = new Set(maskedIds);
    const redacted = await redactCheckpoint(await withTokenStats(view.checkpoint, this.requireLoaded().session), this.findings().filter((f) => masked.has(f.id)));
    const base = view.checkpoint.source.name.replace(/\.[^.]+$/, "");
    return { blob: new Blob([...checkpointPieces(redacted)], { type: "application/json" }), name: `${base}.${view.checkpoint.strategy.name}.redacted.checkpoint.json` };
  }

  locate(messageId: string): ResponseMap["locate"] {
    const view = this.requireView();
    return { original: view.original.indexById.get(messageId) ?? -1, active: view.active.indexById.get(messageId) ?? -1 };
  }

  private project(view: View, pane: Pane, index: number): RowProjection {
    if (pane === "original") return projectRow(view.original, index, -1, false);
    return projectRow(view.active, index, view.activeToOriginal[index]!, view.differs[index] === 1);
  }

  /** `originalModel`: the branch's pane model when the caller already built it (the load's preview). */
  private async buildView(session: Session, summary: SessionSummary, params: CompactParams, previous: Checkpoint | undefined, round: number, originalModel?: PaneModel): Promise<View> {
    const started = performance.now();
    const branch = session.branch(params.leafId);
    const checkpoint = await compactSession(
      session,
      { name: summary.name, bytes: summary.bytes, sha256: summary.sha256 },
      {
        strategy: params.strategy,
        options: params.options,
        leafId: params.leafId,
        previous,
        endpoint: params.summaryEndpoint ? { ...params.summaryEndpoint, fetch: this.fetchImpl } : undefined,
      },
    );
    const original = originalModel ?? buildPaneModel(branch);
    const active = buildPaneModel(checkpoint.active);
    const activeToOriginal = new Int32Array(active.messages.length).fill(-1);
    const originalToActive = new Int32Array(original.messages.length).fill(-1);
    const differs = new Uint8Array(active.messages.length);
    active.messages.forEach((message, i) => {
      const source = original.indexById.get(message.id);
      if (source === undefined) return;
      activeToOriginal[i] = source;
      if (originalToActive[source] === -1) originalToActive[source] = i;
      const sourceMessage = original.messages[source]!;
      // Text that moved out behind a marker is an omission, not a rewrite; prose moved out by a
      // cap, a capped or stubbed tool output, a truncation are rewrites worth a diff.
      const onlyOmitted = message.role === "toolResult" || message.role === "bash" ? message.blocks.some((b) => b.type === "omitted") : false;
      if (!onlyOmitted && sourceMessage !== message && textSignature(sourceMessage) !== textSignature(message)) differs[i] = 1;
    });
    const archive = new Map(checkpoint.archive.map((entry) => [entry.id, entry]));
    const view: View = { checkpoint, previous, round, original, active, archive, activeToOriginal, originalToActive, differs, summary: undefined as never };
    view.summary = {
      strategy: checkpoint.strategy.name,
      options: checkpoint.strategy.options,
      leafId: params.leafId,
      stats: checkpoint.stats,
      composition: composition(checkpoint.active, session.format, { budgetMs: LOAD_COUNT_BUDGET_MS }),
      estimatedTokens: { original: Math.ceil(checkpoint.stats.originalChars / 4), active: Math.ceil(checkpoint.stats.activeChars / 4) },
      round,
      hasPrevious: previous !== undefined,
      compactMs: 0,
      original: paneGeometry(original, null, originalToActive),
      active: paneGeometry(active, differs, activeToOriginal),
    };
    view.summary.compactMs = Math.round(performance.now() - started);
    return view;
  }

  private requireLoaded(): LoadedSession {
    if (!this.loaded) throw new Error("no session is loaded");
    return this.loaded;
  }

  private requireView(): View {
    if (!this.view) throw new Error("no session is loaded");
    return this.view;
  }
}

function searchableText(message: Message): string {
  let out = message.id + "\n";
  for (const block of message.blocks) {
    if (block.type === "text" || block.type === "thinking") out += block.text + "\n";
    else if (block.type === "toolCall") out += block.name + " " + JSON.stringify(block.arguments) + "\n";
    else if (block.type === "omitted") out += block.label + " " + block.recoveryId + "\n";
  }
  return out;
}

function summarize(session: Session, name: string, bytes: number, sha256: string, timings: SessionSummary["timings"]): SessionSummary {
  const leaves: LeafOption[] = session.leaves.map((id) => {
    const path = session.path(id);
    let label = "";
    for (let i = path.length - 1; i >= 0 && !label; i--) {
      const user = path[i]!.messages.find((m) => m.role === "user" && textOf(m).trim() !== "");
      if (user) label = textOf(user).replace(/\s+/g, " ").trim();
    }
    if (label.length > 90) label = label.slice(0, 89) + "…";
    return { id, label: label || "(no user message)", messages: session.branch(id).length, isDefault: id === session.defaultLeafId };
  });
  return {
    name,
    bytes,
    sha256,
    format: session.format,
    formatVersion: session.formatVersion ?? null,
    leaves,
    defaultLeafId: session.defaultLeafId,
    warnings: session.warnings,
    toolCalls: session.toolCallIds.size,
    recordedCompactions: session.recordedContext(null).compactions,
    timings,
  };
}

/** Called with each slice of the bytes, in order, as they become available. */
type OnChunk = (chunk: Uint8Array) => void;

async function readSource(source: LoadSource, task: TaskContext, onChunk: OnChunk): Promise<{ bytes: Uint8Array; name: string }> {
  if (source.kind === "bytes") {
    const bytes = new Uint8Array(source.bytes);
    onChunk(bytes);
    return { bytes, name: source.name };
  }
  if (source.kind === "url") {
    const response = await fetch(source.url);
    if (!response.ok) throw new SessionError(0, `could not fetch ${source.name} (HTTP ${response.status})`);
    const total = Number(response.headers.get("content-length") ?? 0);
    return { bytes: await readStream(response.body, total, task, onChunk), name: source.name };
  }
  return { bytes: await readFile(source.file, task, onChunk), name: source.file.name };
}

/**
 * Reads a local file with one arrayBuffer() call (in a worker, reading it in
 * 16 MB slices took twice as long), then hands it on in slices, reporting
 * progress and letting a cancel in between them.
 */
async function readFile(file: File, task: TaskContext, onChunk: OnChunk): Promise<Uint8Array> {
  task.progress({ stage: "reading", loaded: 0, total: file.size });
  const bytes = new Uint8Array(await file.arrayBuffer());
  task.checkCancelled();
  for (let offset = 0; offset < bytes.length; offset += PARSE_SLICE) {
    const end = Math.min(bytes.length, offset + PARSE_SLICE);
    onChunk(bytes.subarray(offset, end));
    task.progress({ stage: "parsing", loaded: end, total: bytes.length });
    // A cancel message can only arrive between tasks.
    await new Promise((resolve) => setTimeout(resolve, 0));
    task.checkCancelled();
  }
  return bytes;
}

async function readStream(stream: ReadableStream<Uint8Array> | null, total: number, task: TaskContext, onChunk: OnChunk): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let reported = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      task.checkCancelled();
      chunks.push(value);
      onChunk(value);
      loaded += value.length;
      if (loaded - reported >= READ_CHUNK_REPORT) {
        reported = loaded;
        task.progress({ stage: "reading", loaded, total: Math.max(total, loaded) });
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** One request → the engine method that answers it (shared by the worker and the in-process client). */
export function dispatchRequest(engine: SessionEngine, request: Request, task: TaskContext): unknown {
  switch (request.type) {
    case "strategies":
      return engine.strategies();
    case "load":
      return engine.load(request.source, request.params, task);
    case "compact":
      return engine.compact(request.params);
    case "rows":
      return engine.rows(request.pane, request.start, request.end);
    case "detail":
      return engine.detail(request.pane, request.index, request.full);
    case "recover":
      return engine.recover(request.recoveryId, request.full);
    case "search":
      return engine.search(request.query);
    case "diff":
      return engine.diff(request.index, request.full);
    case "export":
      return engine.exportCheckpoint();
    case "locate":
      return engine.locate(request.messageId);
    case "checkride":
      return engine.checkride(request.params);
    case "rounds":
      return engine.rounds(request.params);
    case "scan":
      return engine.scan();
    case "report":
      return engine.report(request.params);
    case "exportRedacted":
      return engine.exportRedacted(request.masked);
    case "cancel":
      return { cancelled: false }; // cancels are handled before dispatch
  }
}
