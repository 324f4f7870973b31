/**
 * What every audit screen says must hold against the file and against
 * itself, on every recorded compaction of every real session (the fixtures,
 * and the blind set where it is fetched): a kept message is never badged
 * dropped, the facts add up, "summary" marks only what the file records as
 * one, and the row the CLI, the report and the library print agrees with
 * the audit it came from.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditSession } from "../../../core/audit/session.ts";
import { compactionLine, compactionRow } from "../../../core/audit/rows.ts";
import { viewAgainstFile } from "../../../core/audit/view-vs-file.ts";
import { compactionCells, reportCompaction } from "../../../core/report/compactions.ts";
import { copyKey } from "../../../core/same-message.ts";
import { loadSession } from "../../../core/session.ts";
import type { Message } from "../../../core/model.ts";
import { SessionEngine } from "../../../src/worker/engine.ts";
import { BLIND_FIXTURES, FIXTURES } from "../../helpers/fixtures.ts";

function sessionsUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(root, dir.name))) if (/\.(jsonl|json)$/.test(file) && !file.endsWith(".prefix.jsonl")) out.push(join(root, dir.name, file));
  }
  return out.sort();
}

/** Every real session on this machine that records at least one compaction. */
const WITH_COMPACTIONS = [...sessionsUnder(FIXTURES), ...sessionsUnder(BLIND_FIXTURES)].filter((path) => {
  try {
    const session = loadSession(readFileSync(path));
    return session.recordedCompactions(session.defaultLeafId).length > 0;
  } catch {
    return false;
  }
});

const short = (path: string) => path.split("/").slice(-2).join("/");

function countByKey(messages: readonly Message[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const message of messages) {
    const key = copyKey(message);
    if (key !== null) out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

describe.skipIf(WITH_COMPACTIONS.length === 0)("audit invariants on every recorded compaction of every real session", () => {
  it.each(WITH_COMPACTIONS.map(short))("%s: kept is never dropped; dropped is never still there", (name) => {
    const path = WITH_COMPACTIONS.find((p) => short(p) === name)!;
    const session = loadSession(readFileSync(path));
    for (const compaction of session.recordedCompactions(session.defaultLeafId)) {
      const dropped = new Set(compaction.droppedMessageIds);
      const afterIds = new Set(compaction.after.map((m) => m.id));
      for (const message of compaction.before) if (afterIds.has(message.id)) expect(dropped.has(message.id), `#${compaction.index} ${message.id} kept by id`).toBe(false);
      // By content: of the before messages with a given text, as many stay as the after context holds copies of (no more, no fewer).
      const before = countByKey(compaction.before);
      const keptByKey = countByKey(compaction.before.filter((m) => !dropped.has(m.id)));
      const after = countByKey(compaction.after);
      for (const [key, n] of before) {
        expect(keptByKey.get(key) ?? 0, `#${compaction.index}: ${key.slice(0, 80)}`).toBe(Math.min(n, after.get(key) ?? 0));
      }
    }
  });

  it.each(WITH_COMPACTIONS.map(short))(
    "%s: kept + fell out + gone before = asked, the same in the row and the report",
    async (name) => {
      const path = WITH_COMPACTIONS.find((p) => short(p) === name)!;
      const session = loadSession(readFileSync(path));
      const audit = await auditSession(session);
      expect(audit.compactions.length).toBeGreaterThan(0);
      for (const one of audit.compactions) {
        const { facts } = one;
        expect(facts.kept + facts.fellOut + facts.goneBefore).toBe(facts.asked);
        expect(one.factFates).toHaveLength(facts.asked);
        // The literal reader is the audit's: what it kept is the recorded score.
        expect(facts.kept).toBe(facts.recorded);
        expect(one.dropped.facts).toHaveLength(facts.fellOut);
        for (const fate of one.factFates) if (fate.fate === "kept") expect(one.checkride.recorded.probes.find((p) => p.id === fate.probe)?.status).toBe("pass");
        const row = compactionRow(one);
        expect(row.facts).toEqual(facts);
        expect(row.dropped.facts).toHaveLength(facts.fellOut);
        expect([row.viewTokensBefore, row.viewTokensAfter]).toEqual([one.size.before, one.size.after]);
        const cells = compactionCells(reportCompaction(one));
        expect(cells).toContain(`${facts.kept}/${facts.asked}`);
        // A count above the file's own figure never stands unexplained.
        const before = viewAgainstFile(one.kind, one.size.before, one.tokensBefore);
        if (before.excess !== null) expect(compactionLine(one)).toContain(before.note!);
        else if (before.file !== null) expect(one.size.before).toBeLessThanOrEqual(before.file);
      }
    },
    120_000,
  );

  it.each(WITH_COMPACTIONS.map(short))(
    "%s: the audit view badges dropped only what is not in the after pane, and 'summary' only a summary",
    async (name) => {
      const path = WITH_COMPACTIONS.find((p) => short(p) === name)!;
      const bytes = readFileSync(path);
      const engine = new SessionEngine();
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const task = { progress: () => {}, checkCancelled: () => {} };
      const loaded = await engine.load({ kind: "bytes", bytes: buffer, name: name.split("/").pop()! }, { strategy: "transparent", options: {}, leafId: null }, task);
      const session = loadSession(bytes);
      // Each audit view takes the place of the one before it on screen, as the app's next/previous do.
      let shown = loaded.view.id;
      for (const compaction of session.recordedCompactions(session.defaultLeafId)) {
        const view = engine.auditView(shown, compaction.index);
        shown = view.id;
        const original = engine.rows(view.id, "original", 0, compaction.before.length);
        const active = engine.rows(view.id, "active", 0, compaction.after.length);
        const afterKeys = countByKey(compaction.after);
        const keptKeys = countByKey(compaction.before.filter((_, i) => !original[i]!.dropped));
        for (const [i, row] of original.entries()) {
          if (!row.dropped) continue;
          const key = copyKey(compaction.before[i]!);
          // A dropped row's text may stand on the right only as a copy of another, kept, row.
          if (key !== null) expect((keptKeys.get(key) ?? 0) >= (afterKeys.get(key) ?? 0), `#${compaction.index} row ${i} badged dropped but in the after pane`).toBe(true);
        }
        for (const row of active) if (row.isSummary) expect(row.role, `#${compaction.index} row ${row.index} labelled summary`).toBe("summary");
      }
    },
    120_000,
  );
});
