/**
 * Pi's own SessionManager (the devDependency) is the oracle for Pi files: our
 * branch and recorded context must equal its getBranch() and
 * buildSessionContext() entry for entry. Pi migrates old files in place, so
 * it opens a copy in a temp dir.
 */
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Message } from "../../core/model.ts";
import { loadSession } from "../../core/session.ts";
import { describeWithFixtures, fixturePath, readFixture } from "../helpers/fixtures.ts";

const PI_FIXTURES = [
  "pi/badlogic__pi-mono__before-compaction.jsonl",
  "pi/JohnnyLai92__pi-mono__6edf3497.jsonl",
  "pi/JohnnyLai92__pi-mono__6edf3497.prefix.jsonl",
  "composed/pi-v3-tree.jsonl",
  "composed/pi-v2-hookmessage.jsonl",
];

const temp = mkdtempSync(join(tmpdir(), "pi-oracle-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function openWithPi(relative: string) {
  const dir = mkdtempSync(join(temp, "s-"));
  const copy = join(dir, "session.jsonl");
  copyFileSync(fixturePath(relative), copy);
  return SessionManager.open(copy, dir);
}

type PiMessage = Record<string, unknown> & { role: string };

/** Role and every word the model reads, in our neutral terms. */
function fingerprintPi(message: PiMessage): string {
  const role = { compactionSummary: "summary", branchSummary: "summary", bashExecution: "bash", hookMessage: "custom" }[message.role] ?? message.role;
  let text: string;
  if (message.role === "compactionSummary" || message.role === "branchSummary") text = String(message.summary);
  else if (message.role === "bashExecution") text = String(message.output);
  else if (typeof message.content === "string") text = message.content;
  else text = (message.content as Record<string, unknown>[]).map((b) => String(b.text ?? b.thinking ?? b.id ?? b.type)).join("|");
  return `${role}:${text}`;
}

function fingerprintOurs(message: Message): string {
  const text = message.blocks
    .map((b) => (b.type === "text" || b.type === "thinking" ? b.text : b.type === "toolCall" ? b.id : b.type === "raw" ? String((b.value as { type?: string }).type) : b.type))
    .join("|");
  return `${message.role}:${text}`;
}

describeWithFixtures("Pi oracle", () => {
  describe.each(PI_FIXTURES)("%s", (relative) => {
    const pi = openWithPi(relative);
    const ours = loadSession(readFixture(relative), { strict: true });

    it("resumes the same leaf and walks the same branch", () => {
      const piBranch = pi.getBranch() as unknown as Record<string, unknown>[];
      const path = ours.path(ours.defaultLeafId);
      expect(path.map((e) => e.type)).toEqual(piBranch.map((e) => e.type));
      // v1 ids are random in Pi's migration; there, compare the message timestamps both sides keep.
      if (ours.formatVersion !== "1") expect(path.map((e) => e.id)).toEqual(piBranch.map((e) => e.id));
      const messageTimestamps = (entries: { type: unknown; timestamp?: unknown }[]) => entries.filter((e) => e.type === "message").map((e) => e.timestamp);
      expect(messageTimestamps(path.map((e) => ({ type: e.type, timestamp: e.messages[0]?.meta.timestamp })))).toEqual(
        messageTimestamps(piBranch.map((e) => ({ type: e.type, timestamp: (e.message as { timestamp?: unknown } | undefined)?.timestamp }))),
      );
    });

    it("builds the same recorded context as buildSessionContext()", () => {
      const expected = (pi.buildSessionContext().messages as unknown as PiMessage[]).map(fingerprintPi);
      const actual = ours.recordedContext(null).messages.map(fingerprintOurs);
      expect(actual).toEqual(expected);
    });

    it("keeps tool-result metadata exactly as Pi reads it", () => {
      const piResults = (pi.buildSessionContext().messages as unknown as PiMessage[]).filter((m) => m.role === "toolResult");
      const ourResults = ours.recordedContext(null).messages.filter((m) => m.role === "toolResult");
      expect(ourResults.length).toBe(piResults.length);
      ourResults.forEach((message, i) => {
        const { content: _content, ...piMeta } = piResults[i]!;
        expect(message.meta).toEqual(piMeta);
      });
    });
  });
});
