/**
 * Anchors a reviewer would keep: commits the session shows, URLs that are
 * not boilerplate, issue and PR numbers, shaped error codes. Not anchors: the
 * session's own ids (and their fragments), hex that is no commit, placeholder
 * hex from test data, capitalised words, licence/schema/example URLs.
 *
 * Where each kind is read:
 * - commits: hex that someone refers to (human or assistant prose, a git
 *   command) and that is a commit: shown by git (in a git command or its
 *   output) or named in a sentence about git; a hash listed once in a
 *   `git log` output nobody mentions again is not an anchor;
 * - URLs and #refs: human and assistant prose and tool-call arguments (never
 *   tool output, which is full of other people's links); #refs not in code;
 * - error codes: prose, tool-call arguments and failed tool output.
 *
 * How sure each kind is (docs/blind-set.md, anchors by where they come from,
 * on the sets labelled blind in rounds 3 to 6): commits were a reviewer's
 * anchor 61 times in 63, error codes of a failure 7 in 9; links
 * only 40 in 97 wherever they were read (a tool call's 20 in 31, a user's
 * 13 in 32, the assistant's 7 in 34) and `#refs` none of 13. Commits,
 * codes seen in a failure or a command, and an issue or PR the human names
 * ("issue 318") are graded; links, other refs and codes only mentioned in
 * prose are candidates, each with why, graded once the user accepts one.
 */
import { textOf, type Message, type ToolCallBlock } from "../model.ts";
import { hexRuns } from "../signals.ts";
import { toolOutcome } from "../tool-info.ts";
import { sourceIn, type FactSource } from "./source.ts";
import { modifiedPathsOf } from "./tool-calls.ts";
import { outputSaysFailed, withoutHeredocBodies } from "./verify.ts";

export interface Anchor {
  value: string;
  mentions: number;
  source: FactSource;
  /** Why the extractor is not sure of it (a candidate); absent when it is graded. */
  why?: string;
}

/** Why a kind of anchor is a candidate: the words the answer key shows beside it. */
export const ANCHOR_DOUBT = {
  link: "a link: on sessions labelled blind, fewer than half the links a session held were ones a reviewer kept",
  ref: "an issue or PR number the assistant or a bare '#123' named: on sessions labelled blind, none was one a reviewer kept",
  code: "an error code only mentioned in prose, never seen in a failure or a command",
  listedCode: "a Python errno or a GitHub advisory id in a failure's output: on sessions labelled blind, none was one a reviewer kept",
  commitInProse: "a commit the assistant named only in a sentence about git, never in a git command or its output: on sessions labelled blind, most were not ones a reviewer kept",
} as const;

/** git prints 7–12 characters of a commit, or all 40; other lengths are other hashes. */
export const COMMIT_SHORT_MIN = 7;
export const COMMIT_SHORT_MAX = 12;
export const COMMIT_FULL = 40;
/** An md5 digest's length: git never prints 32 hex for a commit. */
export const DIGEST_LENGTH = 32;
/** A hex run with this few distinct characters is a pattern, not a hash ("aaaaaaa", "abababab"). */
export const PLACEHOLDER_MAX_DISTINCT = 4;
/** Id fragments shorter than this are too common to exclude on sight. */
export const ID_FRAGMENT_MIN = 7;

const PLACEHOLDER_HEX = /deadbeef|cafebabe|0123456|1234567|abcdef|abc123|a1b2c3|fedcba|badc0de|c0ffee|feedface|00000000/;
/** Git's empty tree: every repository has it, no commit is it. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const UUID = /(?<![0-9a-f])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])/gi;
/** A URL ends at a space, a quote or bracket, and at CJK text or full-width punctuation ("…/dashboard，在你的"). */
const URL = /https?:\/\/[^\s<>"'`)\]\\\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]+/g;
const BOILERPLATE_URL =
  /^https?:\/\/([\w-]+\.)*(example\.(com|org|net)|opensource\.org|apache\.org\/licenses|gnu\.org\/licenses|creativecommons\.org|json-schema\.org|w3\.org|schemas?\.[\w.-]+|spdx\.org|localhost|127\.0\.0\.1|0\.0\.0\.0)\b|^https?:\/\/(10\.\d+|192\.168|172\.(1[6-9]|2\d|3[01]))\.\d+\.\d+\b|\/licenses?\b|LICENSE|\$schema|\.xsd$|schema\.json$|^https?:\/\/(claude\.(com|ai)|(www\.)?anthropic\.com)\/claude-code\b/i;
/** A URL with placeholders ("{port}", "$p", "xxxxx") is a template in code or an example, not a place. */
const TEMPLATE_URL = /[{}$<>]|x{4,}|X{4,}|\.\.\./;
/** An API endpoint in a command is plumbing; the page a person reads is the anchor. */
const API_URL = /^https?:\/\/(api\.|[^/]+\/api\/)/;

/**
 * "[STATUS.md](http://STATUS.md)": a chat client turned a file name into a link to a host of that name.
 * The name is the file, not a place the session visited.
 */
const FILE_LIKE_HOST = /\.(md|mdx|txt|json|ya?ml|toml|lock|ini|cfg|conf|env|ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|swift|c|h|cpp|css|scss|html|sql|sh)$/i;
function isAutoLinkedName(text: string, url: string, at: number): boolean {
  const host = /^https?:\/\/([^/\s]+)\/?$/.exec(url)?.[1];
  // "[google.com](https://google.com)" is a site: only a name ending like a file is a file.
  if (host === undefined || !FILE_LIKE_HOST.test(host)) return false;
  return text.slice(Math.max(0, at - host.length - 3), at) === `[${host}](`;
}
/** git commit's first line: "[main 1a2b3c4] subject" (also "[main (root-commit) 1a2b3c4]"). */
const COMMIT_MADE = /^\[[^\]\s]+(?: \([\w-]+\))? ([0-9a-f]{7,12})\] /gm;

const REF = /(?:^|[\s(])(#\d{2,6})\b/g;
const PR_OR_ISSUE = /\b(?:PR|pull request|issue)\s+#?(\d{2,6})\b/gi;
/**
 * Error codes with a shape: TypeScript, rustc, C#, errno names, npm's (not ELIFECYCLE: it says only
 * that a script exited non-zero, like "exit code 1"), HTTP statuses, gRPC (Google Cloud) statuses,
 * GitHub's push refusals, security advisories, markdownlint's rules, Node's and pnpm's ERR_ codes,
 * Python's errno and Windows' error numbers.
 */
export const ERROR_CODE =
  /\b(TS\d{4,5}|E\d{4}|CS\d{4}|E(?:NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|PIPE|MFILE|NOTEMPTY|BUSY|AI_AGAIN|HOSTUNREACH|NETUNREACH|INVAL|NOSPC|ROFS|XDEV|RESOLVE|INTEGRITY)|HTTP [45]\d\d|Error [45]\d\d|PERMISSION_DENIED|UNAUTHENTICATED|RESOURCE_EXHAUSTED|DEADLINE_EXCEEDED|FAILED_PRECONDITION|GH\d{3}|GO-\d{4}-\d{4,}|CVE-\d{4}-\d{4,}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|MD\d{3}|ERR_[A-Z][A-Z0-9_]{2,}|Errno \d+|Win32 error \d+)\b/g;
/** Codes a failure lists by the dozen or says twice ("[Errno 2] No such file" is its ENOENT; an audit's GHSA ids): candidates. */
const LISTED_CODE = /^(Errno \d+|GHSA-)/;
const GIT_CONTEXT = /\bgit\b|\bcommit|\bsha\b|\brebase\b|\bcherry-pick\b|\brevert\b|\bHEAD\b/i;

/** Every id the session gives its own records, and their hex fragments. */
export function sessionIds(branch: readonly Message[], extra: readonly string[] = []): Set<string> {
  const ids = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value !== "string" || value.length < ID_FRAGMENT_MIN || /\s/.test(value)) return;
    ids.add(value.toLowerCase());
    for (const part of value.toLowerCase().split(/[^0-9a-z]+/)) {
      if (part.length < ID_FRAGMENT_MIN) continue;
      // A tool shows an id by its first seven characters ("[Claude Code] e04f455  started just now"): so is each prefix.
      for (let n = ID_FRAGMENT_MIN; n <= part.length; n++) ids.add(part.slice(0, n));
    }
  };
  const idKey = /(^id$|Id$|_id$|uuid|Uuid|^parent|session)/;
  const addFields = (record: Record<string, unknown> | undefined) => {
    for (const [key, value] of Object.entries(record ?? {})) if (idKey.test(key)) add(value);
  };
  for (const value of extra) add(value);
  for (const message of branch) {
    add(message.id.replace(/#\d+$/, ""));
    addFields(message.meta);
    const record = message.meta.record;
    if (typeof record === "object" && record !== null) addFields(record as Record<string, unknown>);
    for (const block of message.blocks) if (block.type === "toolCall") add(block.id);
  }
  return ids;
}

function isPlaceholderHex(run: string): boolean {
  return run === EMPTY_TREE || PLACEHOLDER_HEX.test(run) || new Set(run).size <= PLACEHOLDER_MAX_DISTINCT;
}

/** A build's hash beside its version ("Entire CLI 0.4.4 (2f0ad9ab)"): the tool's own commit, not one of the work. */
function isVersionBuild(text: string, run: string): boolean {
  const at = text.indexOf(`(${run})`);
  return at > 0 && /\bv?\d+\.\d+(\.\d+)?(-[\w.]+)?\s*$/.test(text.slice(Math.max(0, at - 40), at));
}

function hasCommitShape(run: string): boolean {
  return (run.length >= COMMIT_SHORT_MIN && run.length <= COMMIT_SHORT_MAX) || run.length === COMMIT_FULL;
}

/** Characters that may sit right before and after a reference: space, quotes, brackets, punctuation. */
const OPEN_BOUNDARY = /[\s`'"(<[{:,=]/;
const CLOSE_BOUNDARY = /[\s`'")>\]},.;:!?]/;
/** Hex right after a word for a checksum is a digest, not a commit. */
const DIGEST_BEFORE = /\b(md5|sha-?256|sha-?1 of|checksum|digest)\b[^\n]{0,40}$/i;
/** A diff's blob line ("index 20edef5..f55e657") names blobs, not commits. */
const DIFF_INDEX_LINE = /^index [0-9a-f]+\.\.[0-9a-f]+/;

/**
 * A hex run that is a reference of its own, at least once in the text: not
 * part of a name ("pack-<hex>.pack", "entire/<hex>-6b86b2"), not a checksum
 * ("the md5 went from <hex>"), not a diff's blob id.
 */
function standsAlone(text: string, run: string): boolean {
  for (let at = text.indexOf(run); at >= 0; at = text.indexOf(run, at + 1)) {
    const before = at === 0 ? " " : text[at - 1]!;
    const after = at + run.length >= text.length ? " " : text[at + run.length]!;
    if (!OPEN_BOUNDARY.test(before) || !CLOSE_BOUNDARY.test(after)) continue;
    const lineStart = text.lastIndexOf("\n", at) + 1;
    if (!DIGEST_BEFORE.test(text.slice(lineStart, at)) && !DIFF_INDEX_LINE.test(text.slice(lineStart, at + 2 * run.length + 2))) return true;
  }
  return false;
}

/** Hex runs that sit inside a UUID of the text: fragments of someone's id. */
function uuidFragments(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes("-")) return out;
  for (const match of text.matchAll(UUID)) for (const part of match[0].toLowerCase().split("-")) out.add(part);
  return out;
}

export interface AnchorScanOptions {
  /** Extra ids of the session (its header's id). */
  ids?: readonly string[];
  /** The human-written spans of a message (prose for URLs and refs). */
  humanText?: (message: Message) => string;
}

export function anchorsOf(
  branch: readonly Message[],
  calls: Map<string, ToolCallBlock>,
  commandOf: (call: ToolCallBlock) => string | undefined,
  options: AnchorScanOptions = {},
): Anchor[] {
  const ids = sessionIds(branch, options.ids);
  const found = new Map<string, Anchor>();
  /** `why` marks a mention the extractor is not sure of; one sure mention makes the anchor graded. */
  const note = (value: string, message: Message, why?: string) => {
    const existing = found.get(value);
    if (existing) {
      existing.mentions++;
      if (why === undefined) delete existing.why;
      return;
    }
    found.set(value, { value, mentions: 1, source: sourceIn(message, value), ...(why !== undefined ? { why } : {}) });
  };

  // Commits the session shows: hex in a git command or in a git command's output.
  // Digests (32 hex, an md5) anywhere: a short hex that begins one is its prefix, not a commit.
  const shown = new Set<string>();
  const digestPrefixes = new Set<string>();
  for (const message of branch) {
    for (const run of hexRuns(textOf(message))) if (run.length === DIGEST_LENGTH) for (let n = COMMIT_SHORT_MIN; n <= COMMIT_SHORT_MAX; n++) digestPrefixes.add(run.slice(0, n));
    for (const block of message.blocks) {
      const command = block.type === "toolCall" ? commandOf(block) : undefined;
      if (command && /\bgit\b/.test(command)) for (const run of hexRuns(command)) shown.add(run);
    }
    if (message.role === "toolResult" || message.role === "bash") {
      const outcome = toolOutcome(message, calls);
      const call = outcome.callId ? calls.get(outcome.callId) : undefined;
      const command = message.role === "bash" ? outcome.command : call ? commandOf(call) : undefined;
      if (command && /\bgit\b/.test(command)) for (const run of hexRuns(textOf(message))) shown.add(run);
    }
  }
  /** Hex someone referred to (prose or a git command) that is a commit: shown by git, or named in a sentence about git. */
  const commits = (text: string, message: Message, gitContext: boolean) => {
    const fragments = uuidFragments(text);
    for (const run of hexRuns(text)) {
      if (!/[a-f]/.test(run) || !/[0-9]/.test(run) || !hasCommitShape(run)) continue;
      if (ids.has(run) || fragments.has(run) || digestPrefixes.has(run) || isPlaceholderHex(run) || !standsAlone(text, run) || isVersionBuild(text, run)) continue;
      // Shown by git, or cited by the human ("returns 500 since commit 4f1c2ab"), sure; named only in the
      // assistant's sentence about git, a candidate.
      if (shown.has(run)) note(run, message);
      else if (gitContext) note(run, message, message.role === "user" ? undefined : ANCHOR_DOUBT.commitInProse);
    }
  };
  const links = (text: string, message: Message, withRefs: boolean, inCommand = false) => {
    // "issue 318", "PR #12" typed by the human names what the work is on (LABELS.md: "issue/PR numbers that were worked on").
    const refWhy = message.role === "user" ? undefined : ANCHOR_DOUBT.ref;
    if (text.includes("http")) {
      for (const match of text.matchAll(URL)) {
        const url = match[0].replace(/[.,;:*]+$/, "");
        if (BOILERPLATE_URL.test(url) || TEMPLATE_URL.test(url) || (inCommand && API_URL.test(url))) continue;
        if (isAutoLinkedName(text, url, match.index)) continue;
        note(url, message, ANCHOR_DOUBT.link);
      }
    }
    if (!withRefs) return;
    const prose = text.replace(/```[\s\S]*?(```|$)|`[^`\n]*`/g, (code) => " ".repeat(code.length));
    for (const match of prose.matchAll(REF)) note(match[1]!, message, ANCHOR_DOUBT.ref);
    for (const match of prose.matchAll(PR_OR_ISSUE)) note(`#${match[1]}`, message, refWhy);
  };
  const codes = (text: string, message: Message, why?: string) => {
    for (const match of text.matchAll(ERROR_CODE)) note(match[1]!, message, why ?? (LISTED_CODE.test(match[1]!) ? ANCHOR_DOUBT.listedCode : undefined));
  };

  for (const message of branch) {
    if (message.role === "user" || message.role === "assistant") {
      const prose = message.role === "user" ? (options.humanText?.(message) ?? textOf(message)) : textOf(message);
      const full = textOf(message);
      commits(prose, message, GIT_CONTEXT.test(prose));
      links(prose, message, true);
      codes(prose, message, ANCHOR_DOUBT.code);
      if (full !== prose && message.role === "user") continue;
    }
    for (const block of message.blocks) {
      if (block.type !== "toolCall") continue;
      // What an edit writes is file content: its URLs and codes are code, not references. A command that
      // writes a file keeps its own words (`curl -o a.svg URL` fetched that URL); a heredoc's body is content.
      const writes = modifiedPathsOf(block).length > 0;
      const command = commandOf(block);
      if (writes && command === undefined) continue;
      const args = command === undefined ? JSON.stringify(block.arguments) : writes ? withoutHeredocBodies(command) : command;
      commits(args, message, command !== undefined && /\bgit\b/.test(command));
      links(args, message, false, true);
      codes(args, message);
    }
    // Tool output: the commit a `git commit` made, and the error codes of a failure
    // (other hex in output counts only when someone refers to it).
    if (message.role === "toolResult" || message.role === "bash") {
      const text = textOf(message);
      for (const made of text.matchAll(COMMIT_MADE)) if (!ids.has(made[1]!)) note(made[1]!, message);
      // A failure the exit code says, or (where the format records none, as Cline) the output's own failure lines.
      const isError = toolOutcome(message, calls).isError;
      if (isError === true || (isError === undefined && outputSaysFailed(text))) codes(text, message);
    }
  }
  return [...withPrefixesMerged(found).values()].sort((a, b) => b.mentions - a.mentions || a.value.localeCompare(b.value));
}

/**
 * One commit shown short and in full ("0759def", "0759def6dab…") is one anchor: the full form, with the
 * short one's mentions, and graded when either was.
 */
function withPrefixesMerged(found: Map<string, Anchor>): Map<string, Anchor> {
  const hexes = [...found.keys()].filter((value) => /^[0-9a-f]{7,40}$/.test(value)).sort((a, b) => b.length - a.length);
  for (const short of hexes) {
    const full = hexes.find((value) => value.length > short.length && value.startsWith(short) && found.has(value));
    const anchor = found.get(short);
    const into = full === undefined ? undefined : found.get(full);
    if (!anchor || !into) continue;
    into.mentions += anchor.mentions;
    if (anchor.why === undefined) delete into.why;
    found.delete(short);
  }
  return found;
}
