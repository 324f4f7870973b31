/**
 * The app's state (zustand): its shape, its starting value and the helpers
 * every slice's actions share. It holds projections only: the session itself
 * lives in the worker. The actions live beside it, one file per concern
 * (load, navigation, deep links, checkride, share, presenter).
 */
import { create } from "zustand";
import type { CheckrideResult } from "../../core/checkride/run.ts";
import type { KeyEdits } from "../../core/checkride/key-edits.ts";
import type { RoundsResult } from "../../core/evaluate/rounds.ts";
import type { EndpointSettings } from "../../core/endpoint.ts";
import type { Role } from "../../core/model.ts";
import type { EngineClient } from "../worker/client.ts";
import type { DiffResult, FindingView, LoadSource, MessageDetail, Pane, Progress, RecoveryResult, SessionSummary, StrategyOption, ViewSummary } from "../worker/protocol.ts";
import { RowCache } from "./rowCache.ts";

export interface LoadErrorInfo {
  name: string;
  message: string;
  line?: number;
}

export type RecoveryState = { status: "loading" } | { status: "done"; result: RecoveryResult } | { status: "error"; message: string };

export interface Selection {
  pane: Pane;
  index: number;
}

export interface Filters {
  roles: Role[];
  onlyOmissions: boolean;
}

export interface SearchState {
  query: string;
  original: number[];
  active: number[];
  total: number;
  capped: boolean;
  cursor: number;
}

export interface CheckrideSettings {
  strategies: string[];
  reader: "literal" | "endpoint" | "local";
  /** The GGUF file for the local reader; kept in memory only, read in the worker. */
  localModel: File | null;
  endpointUrl: string;
  model: string;
  /** Kept in memory only: never stored, never exported. */
  apiKey: string;
  timeoutSeconds: number;
  /** Also let this model write the summary slots of pi-default and handoff. */
  summaries: boolean;
  memory: File | null;
}

export type RoundsResponse = { results: RoundsResult[]; distractor: string | null };

export interface CheckrideState {
  open: boolean;
  running: boolean;
  results: CheckrideResult[] | null;
  error: string | null;
  settings: CheckrideSettings;
  /** Scores per compaction round of this session, for the history chart. */
  history: { round: number; strategy: string; reader: string; passed: number; asked: number }[];
  rounds: { running: boolean; count: number; plantText: string; plantAt: number; result: RoundsResponse | null; error: string | null };
  /** The running checkride's request and how far it got. */
  task: { id: number; done: number; total: number; label: string } | null;
  /** Struck and added facts of the answer key (in the URL hash and the report). */
  edits: KeyEdits;
  /** Results per view (session, branch, strategy, cap, round, reader, key): re-opening is instant. */
  cache: Record<string, CheckrideResult[]>;
  /** Why results on screen were cleared (a strategy or branch change), until the next run. */
  cleared: string | null;
  /** The fact whose source was last jumped to (probe id + fact index), highlighted in its row. */
  focused: { strategy: string; probe: string; index: number } | null;
}

export interface ShareState {
  open: boolean;
  scanning: boolean;
  findings: FindingView[] | null;
  /** Finding id → masked (the default) or kept. */
  masked: Record<string, boolean>;
  busy: string | null;
  error: string | null;
}

export interface DeepLink {
  file?: string;
  message?: string;
  strategy?: string;
  leaf?: string;
  /** The recorded compaction audited on screen (1-based): a re-opened file opens on it again. */
  compaction?: number;
  /** The user's edits of the checkride's answer key. */
  edits?: KeyEdits;
}

/** What the screen shows of one view: put back whole when a load that replaced it is cancelled or fails. */
export interface ScreenState {
  session: SessionSummary | null;
  sessionSerial: number;
  /** Bumped each time a followed file grew and the session on screen was made again from it (store/follow.ts). */
  sessionRevision: number;
  view: ViewSummary | null;
  strategy: string;
  proseCap: number | null;
  leafId: string | null;
  recovered: Record<string, RecoveryState>;
  expandedThinking: Record<string, boolean>;
  selected: Selection | null;
  detail: { original: MessageDetail | null; active: MessageDetail | null; diff: DiffResult | null } | null;
  search: SearchState | null;
  checkride: CheckrideState;
}

export interface AppState extends ScreenState {
  client: EngineClient | null;
  /**
   * Bumped when the user picks another branch: the panes start anew. (A followed file's newest branch
   * gets a new leaf id with every message, and its panes must keep their place.)
   */
  branchSerial: number;
  /** The rows each pane has fetched; new with every connect. */
  rowCaches: Record<Pane, RowCache>;
  strategies: StrategyOption[];
  loading: { id: number; name: string; progress: Progress | null } | null;
  /** The screen as it was before a load's preview replaced it. */
  beforePreview: ScreenState | null;
  loadError: LoadErrorInfo | null;
  crashed: string | null;
  busy: string | null;
  lastSource: LoadSource | null;
  filters: Filters;
  showHelp: boolean;
  showWarnings: boolean;
  pendingLink: DeepLink | null;
  /** Bumped to ask a pane to scroll a row into view. */
  scrollRequest: { pane: Pane; index: number; nonce: number } | null;
  share: ShareState;
  presenting: boolean;
}

export const initialShare: ShareState = { open: false, scanning: false, findings: null, masked: {}, busy: null, error: null };

function initialState(): AppState {
  return {
    client: null,
    rowCaches: { original: new RowCache("original"), active: new RowCache("active") },
    strategies: [],
    loading: null,
    beforePreview: null,
    loadError: null,
    crashed: null,
    busy: null,
    session: null,
    sessionSerial: 0,
    sessionRevision: 0,
    branchSerial: 0,
    view: null,
    lastSource: null,
    strategy: "transparent",
    proseCap: null,
    leafId: null,
    recovered: {},
    expandedThinking: {},
    selected: null,
    detail: null,
    filters: { roles: [], onlyOmissions: false },
    search: null,
    showHelp: false,
    showWarnings: false,
    pendingLink: null,
    scrollRequest: null,
    checkride: {
      open: false,
      running: false,
      results: null,
      error: null,
      settings: { strategies: [], reader: "literal", localModel: null, endpointUrl: "", model: "", apiKey: "", timeoutSeconds: 120, summaries: false, memory: null },
      history: [],
      rounds: { running: false, count: 4, plantText: "", plantAt: 0, result: null, error: null },
      task: null,
      edits: { struck: [], added: [] },
      cache: {},
      cleared: null,
      focused: null,
    },
    share: initialShare,
    presenting: false,
  };
}

export const useApp = create<AppState>(initialState);

export const set = useApp.setState;
export const get = useApp.getState;

/** A fresh state around a newly started engine. */
export function resetState(client: EngineClient): void {
  set({ ...initialState(), client });
}

export function client(): EngineClient {
  const current = get().client;
  if (!current) throw new Error("the session engine is not started");
  return current;
}

/** The view on screen's id: every request about it names it. */
export function viewId(): number {
  const view = get().view;
  if (!view) throw new Error("no session is loaded");
  return view.id;
}

/** True once a complete view (both panes) is on screen. */
export function ready(): boolean {
  const view = get().view;
  return view !== null && view.pending !== true;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The strategies the user chose in the checkride panel, or all of them when none is chosen. */
export function chosenStrategyNames(state: Pick<AppState, "checkride" | "strategies">): string[] {
  const chosen = state.checkride.settings.strategies;
  return chosen.length > 0 ? chosen : state.strategies.map((s) => s.name);
}

export function chosenStrategies(): string[] {
  return chosenStrategyNames(get());
}

/** The endpoint as the user set it in the checkride panel. */
export function endpointSettings(): EndpointSettings {
  const settings = get().checkride.settings;
  return { url: settings.endpointUrl, model: settings.model, apiKey: settings.apiKey || undefined, timeoutMs: settings.timeoutSeconds * 1000 };
}

/** The model for summary slots, when the user turned it on and allowed its origin. */
export function summaryEndpoint(): EndpointSettings | undefined {
  const settings = get().checkride.settings;
  return settings.summaries && settings.endpointUrl && settings.model ? endpointSettings() : undefined;
}
