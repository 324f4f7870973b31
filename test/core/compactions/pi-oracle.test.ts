/**
 * Pi's own SessionManager is the oracle for every Pi compaction's `after`:
 * the file cut just after the compaction entry, opened by Pi (on a copy: it
 * migrates old files in place), gives buildSessionContext() at that moment.
 */
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "../../../core/model.ts";
import { loadSession } from "../../../core/session.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "pi-compactions-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Pi's context with the file cut after `line` (the last entry in file order is the leaf Pi resumes). */
function piContextAtLine(relative: string, line: number): string[] {
  const dir = mkdtempSync(join(temp, "s-"));
  const copy = join(dir, "session.jsonl");
  const lines = readFileSync(fixturePath(relative), "utf8").split("\n").slice(0, line);
  writeFileSync(copy, lines.join("\n") + "\n");
  const messages = SessionManager.open(copy, dir).buildSessionContext().messages as unknown as Record<string, unknown>[];
  return messages.map((m) => {
    const role = { compactionSummary: "summary", branchSummary: "summary", bashExecution: "bash", hookMessage: "custom" }[m.role as string] ?? m.role;
    const text =
      m.role === "compactionSummary" || m.role === "branchSummary"
        ? String(m.summary)
        : m.role === "bashExecution"
          ? String(m.output)
          : typeof m.content === "string"
            ? m.content
            : (m.content as Record<string, unknown>[]).map((b) => String(b.text ?? b.thinking ?? b.id ?? b.type)).join("|");
    return `${role}:${text}`;
  });
}

/** The same fingerprint as test/core/pi-oracle.test.ts: the role and every word the model reads. */
function ours(message: Message): string {
  const text = message.blocks
    .map((b) => (b.type === "text" || b.type === "thinking" ? b.text : b.type === "toolCall" ? b.id : b.type === "raw" ? String((b.value as { type?: string }).type) : b.type))
    .join("|");
  return `${message.role}:${text}`;
}

const FIXTURES = ["pi/badlogic__pi-mono__before-compaction.jsonl", "pi/raquezha__pi.dev__pi-session-019dbe19-ca83-74b3-b3ca-230160eb3875.jsonl", "composed/pi-v3-tree.jsonl"];

describeWithFixtures("Pi compactions against Pi's own code", () =>
  describe.each(FIXTURES)("Pi compactions against buildSessionContext: %s", (relative) => {
    const session = loadSession(readFixture(relative));
    const compactions = session.recordedCompactions(null);

    it("has compactions to check", () => {
      expect(compactions.length).toBeGreaterThan(0);
    });

    it.each(compactions.map((c) => [c.index, c] as const))("#%i: after equals Pi's context at the compaction entry, before Pi's context just before it", (_index, compaction) => {
      // The line before each compaction in these files is its parent entry, so cutting there gives Pi's context just before it.
      const parentId = session.byId.get(compaction.entryId)!.parentId;
      expect(session.entries.find((e) => e.line === compaction.line - 1)?.id).toBe(parentId);
      expect(compaction.after.map(ours)).toEqual(piContextAtLine(relative, compaction.line));
      expect(compaction.before.map(ours)).toEqual(piContextAtLine(relative, compaction.line - 1));
    });
  }),
);
