/**
 * Property tests for the entry tree, on generated Pi v3 files: random trees
 * with random leaves never mix branches; a missing parent, a cycle or a
 * duplicate id always gives the named error in strict mode and a warning in
 * lenient mode, never a crash or a hang.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionError } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";

interface GenEntry {
  id: string;
  parentId: string | null;
}

const treeArb = fc.array(fc.nat(), { minLength: 1, maxLength: 60 }).map((picks): GenEntry[] =>
  picks.map((pick, i) => ({
    id: `e${i.toString(16).padStart(7, "0")}`,
    // Parent is an earlier entry (or none): always a valid tree.
    parentId: i === 0 || pick % 7 === 0 ? null : `e${(pick % i).toString(16).padStart(7, "0")}`,
  })),
);

function toJsonl(entries: GenEntry[]): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00Z", cwd: "/" })];
  for (const entry of entries) {
    lines.push(JSON.stringify({ type: "message", id: entry.id, parentId: entry.parentId, timestamp: "t", message: { role: "user", content: entry.id } }));
  }
  return lines.join("\n") + "\n";
}

function ancestors(entries: GenEntry[], leaf: string): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  for (let current = byId.get(leaf); current; current = current.parentId ? byId.get(current.parentId) : undefined) out.unshift(current.id);
  return out;
}

describe("tree properties", () => {
  it("a branch is exactly the leaf's ancestors, root first, for every leaf", () => {
    fc.assert(
      fc.property(treeArb, (entries) => {
        const session = loadSession(toJsonl(entries), { strict: true });
        const childless = entries.filter((e) => !entries.some((c) => c.parentId === e.id)).map((e) => e.id);
        expect(session.leaves).toEqual(childless);
        expect(session.defaultLeafId).toBe(entries.at(-1)!.id);
        for (const leaf of session.leaves) {
          expect(session.branch(leaf).map((m) => m.id)).toEqual(ancestors(entries, leaf));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("entries written before their parents give the same tree as in order (the one-pass shortcut does not apply)", () => {
    fc.assert(
      fc.property(treeArb, fc.array(fc.nat()), (entries, swaps) => {
        const shuffled = [...entries];
        swaps.forEach((swap, i) => {
          const a = i % shuffled.length;
          const b = swap % shuffled.length;
          [shuffled[a], shuffled[b]] = [shuffled[b]!, shuffled[a]!];
        });
        const inOrder = loadSession(toJsonl(entries), { strict: true });
        const outOfOrder = loadSession(toJsonl(shuffled), { strict: true });
        expect(outOfOrder.warnings).toEqual([]);
        // Every entry's branch is the same (the leaf lists differ only in which entry is last in the file).
        for (const entry of entries) {
          expect(outOfOrder.branch(entry.id).map((m) => m.id)).toEqual(inOrder.branch(entry.id).map((m) => m.id));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("a parent that names no entry: strict names the line, lenient warns and loads", () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), (entries, pick) => {
        const victim = pick % entries.length;
        entries[victim]!.parentId = "ffffffff";
        const text = toJsonl(entries);
        expectNamedError(text, victim + 2, /names no entry/);
        const lenient = loadSession(text);
        expect(lenient.warnings.some((w) => w.line === victim + 2)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("a cycle: strict names an entry on it, lenient breaks it and loads", () => {
    fc.assert(
      fc.property(
        treeArb.filter((e) => e.length >= 2),
        fc.nat(),
        (entries, pick) => {
          // Point the root of some entry's chain at that entry: a cycle through them.
          const start = 1 + (pick % (entries.length - 1));
          const chain = ancestors(entries, entries[start]!.id);
          const root = entries.find((e) => e.id === chain[0])!;
          root.parentId = entries[start]!.id;
          const text = toJsonl(entries);
          const cycleLines = new Set(chain.map((id) => entries.findIndex((e) => e.id === id) + 2));
          let error: unknown;
          try {
            loadSession(text, { strict: true });
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(SessionError);
          expect((error as SessionError).reason).toMatch(/cycle/);
          expect(cycleLines.has((error as SessionError).line)).toBe(true);
          const lenient = loadSession(text);
          expect(lenient.warnings.some((w) => /cycle/.test(w.message))).toBe(true);
          for (const leaf of lenient.leaves) lenient.branch(leaf); // terminates
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a duplicate id: strict names the second line, lenient keeps the first", () => {
    fc.assert(
      fc.property(
        treeArb.filter((e) => e.length >= 2),
        fc.nat(),
        (entries, pick) => {
          const copyAt = 1 + (pick % (entries.length - 1));
          entries[copyAt]!.id = entries[pick % copyAt]!.id;
          // Children of the old id now point nowhere; keep the tree otherwise valid.
          const ids = new Set(entries.map((e) => e.id));
          for (const e of entries) if (e.parentId && !ids.has(e.parentId)) e.parentId = null;
          expectNamedError(toJsonl(entries), copyAt + 2, /duplicate id/);
          expect(loadSession(toJsonl(entries)).warnings.some((w) => /duplicate/.test(w.message))).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

function expectNamedError(text: string, line: number, reason: RegExp) {
  let error: unknown;
  try {
    loadSession(text, { strict: true });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(SessionError);
  expect((error as SessionError).line).toBe(line);
  expect((error as SessionError).reason).toMatch(reason);
}
