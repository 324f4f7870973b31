/**
 * The app's export and the CLI's `compact` are the same bytes (a browser test
 * checks it end to end); with token stats in the checkpoint `compact --token-counts` writes, the
 * worker adds them at export. Checked here in process on real sessions.
 */
import { expect, it } from "vitest";
import { SessionEngine } from "../../src/worker/engine.ts";
import { handleRequest } from "../../src/worker/handlers.ts";
import { runCli } from "../helpers/cli.ts";
import { fixturePath, readFixture, describeWithFixtures } from "../helpers/fixtures.ts";

describeWithFixtures("export with token stats", () => {
  it.each(["pi/JohnnyLai92__pi-mono__6edf3497.jsonl", "claude/DRMacIver__claude-reliability__python-to-rust-port.jsonl"])(
    "%s: the worker's export equals the CLI's compact",
    async (relative) => {
      const bytes = readFixture(relative);
      const engine = new SessionEngine();
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const task = { progress: () => {}, checkCancelled: () => {} };
      const result = await engine.load({ kind: "bytes", bytes: buffer, name: relative.split("/").pop()! }, { strategy: "transparent", options: {}, leafId: null }, task);
      const exported = await (await handleRequest(engine, { type: "export", view: result.view.id }, task)).blob.text();
      const cli = runCli(["compact", "--token-counts", fixturePath(relative)]);
      expect(cli.status).toBe(0);
      expect(JSON.parse(exported).stats.originalTokens).toBeGreaterThan(0);
      expect(exported + "\n").toBe(cli.stdout);
    },
  );
});
