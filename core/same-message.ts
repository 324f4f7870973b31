/**
 * Which message of a later context is which message of an earlier one. By
 * id first; then, for the messages some formats write again under a new id
 * when they compact (Codex's replacement history copies the user's messages
 * and the permissions block), by their role and text. One definition for
 * every screen that says "kept" or "dropped": the compaction's dropped ids,
 * the audit's dropped human messages and the panes' alignment.
 */
import { textOf, type Message, type Role } from "./model.ts";

/** Roles a compaction copies as prose; a tool result or a summary is never taken for a copy. */
const COPIED_ROLES: ReadonlySet<Role> = new Set<Role>(["user", "assistant", "system", "custom"]);

/** What a verbatim copy repeats: role and text. Null where a message has no text to compare. */
export function copyKey(message: Message): string | null {
  if (!COPIED_ROLES.has(message.role)) return null;
  const text = textOf(message);
  return text === "" ? null : `${message.role}\n${text}`;
}

export interface MatchOptions {
  /** The format's own sameness (default: the id). */
  identity?: (message: Message) => string;
  /** `earlier`'s first index by identity, where the caller holds it already (a pane's model). */
  earlierIndexById?: ReadonlyMap<string, number>;
  /**
   * The matches of `later`'s first `rows` messages, each by its identity, known from a match
   * before (a followed file's next look: the same messages in both lists' unchanged starts). The
   * caller vouches that each is what the identity lookup would give; they are taken as they are.
   */
  knownByIdentity?: { matches: Int32Array; rows: number };
}

function firstIndexBy(messages: readonly Message[], identity: (message: Message) => string): Map<string, number> {
  const out = new Map<string, number>();
  messages.forEach((message, i) => {
    const key = identity(message);
    if (!out.has(key)) out.set(key, i);
  });
  return out;
}

/**
 * For each message of `later`, the index in `earlier` of the message it is
 * (-1 when none). Ids match first; each later message left unmatched then
 * takes the first earlier message with the same copy key that nothing has
 * taken yet, so two identical "continue"s before and one after leave one of
 * them dropped.
 */
export function matchMessages(earlier: readonly Message[], later: readonly Message[], options: MatchOptions = {}): Int32Array {
  const identity = options.identity ?? ((m: Message) => m.id);
  const out = new Int32Array(later.length).fill(-1);
  const indexByIdentity = options.earlierIndexById ?? firstIndexBy(earlier, identity);
  const taken = new Uint8Array(earlier.length);
  const unmatched: number[] = [];
  const known = options.knownByIdentity ? Math.min(options.knownByIdentity.rows, later.length) : 0;
  for (let i = 0; i < known; i++) {
    const source = options.knownByIdentity!.matches[i]!;
    out[i] = source;
    taken[source] = 1;
  }
  for (let i = known; i < later.length; i++) {
    const source = indexByIdentity.get(identity(later[i]!));
    if (source === undefined) unmatched.push(i);
    else {
      out[i] = source;
      taken[source] = 1;
    }
  }
  // Keys are built only for the later messages left unmatched (few: a compaction's copies) and
  // for the earlier messages nothing took whose text is as long as one of them, so a long branch
  // with everything dropped costs one pass, not a copy of all its text.
  const waiting = new Map<string, number[]>();
  const lengths = new Set<number>();
  for (const i of unmatched) {
    const key = copyKey(later[i]!);
    if (key === null) continue;
    lengths.add(textLength(later[i]!));
    const list = waiting.get(key);
    if (list) list.push(i);
    else waiting.set(key, [i]);
  }
  if (waiting.size === 0) return out;
  earlier.forEach((message, i) => {
    if (taken[i] || !COPIED_ROLES.has(message.role) || !lengths.has(textLength(message))) return;
    const target = waiting.get(copyKey(message) ?? "")?.shift();
    if (target !== undefined) out[target] = i;
  });
  return out;
}

/** textOf(message).length without building the string. */
function textLength(message: Message): number {
  let length = 0;
  let blocks = 0;
  for (const block of message.blocks) {
    if (block.type !== "text") continue;
    length += block.text.length;
    blocks++;
  }
  return length + Math.max(0, blocks - 1);
}

/** The earlier messages no later message is (see matchMessages): what left the context. */
export function messagesLeft(earlier: readonly Message[], later: readonly Message[], identity?: (message: Message) => string): Message[] {
  const kept = new Uint8Array(earlier.length);
  for (const source of matchMessages(earlier, later, { identity })) if (source >= 0) kept[source] = 1;
  return earlier.filter((_, i) => !kept[i]);
}
