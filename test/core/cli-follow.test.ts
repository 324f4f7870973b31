/**
 * `audit --follow` on a file another process writes (issue #29): the real
 * CLI follows a Claude Code session written in pieces (cut mid-line), prints
 * one JSON line per turn and the audit row of its compaction in file order,
 * and stops cleanly when the file is removed or replaced.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadSession } from "../../core/session.ts";
import { LAUNCHER, ROOT } from "../helpers/cli.ts";
import { describeWithFixtures, fixturePath } from "../helpers/fixtures.ts";

const temp = mkdtempSync(join(tmpdir(), "si-follow-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startFollowing(path: string, command: "audit" | "inspect" = "audit") {
  const child = spawn(process.execPath, [LAUNCHER, command, path, "--follow", "--json", "--interval", "40"], { cwd: ROOT });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return { output: () => ({ stdout, stderr }), exited };
}

async function until(condition: () => boolean, ms = 30_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > ms) throw new Error("timed out waiting");
    await sleep(25);
  }
}

describeWithFixtures("audit --follow", () => {
  it("prints each turn and the compaction's audit row in file order as another process writes the file, and stops when it is removed", async () => {
    const bytes = readFileSync(fixturePath("claude/entireio__cli__d0-161e0df1cb.jsonl"));
    const fresh = loadSession(bytes);
    const turns = fresh.usage(fresh.defaultLeafId).turns;
    const [compaction] = fresh.recordedCompactions(fresh.defaultLeafId);
    const path = join(temp, "session.jsonl");
    writeFileSync(path, "");
    const follow = startFollowing(path);
    await until(() => follow.output().stderr.includes("following"));
    // Written in 25 pieces whose ends fall mid-line, a few milliseconds apart.
    const pieces = 25;
    for (let i = 0; i < pieces; i++) {
      appendFileSync(path, bytes.subarray(Math.floor((bytes.length * i) / pieces), Math.floor((bytes.length * (i + 1)) / pieces)));
      await sleep(30);
    }
    const printed = () =>
      follow
        .output()
        .stdout.split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { kind: string; line: number; messageId?: string; index?: number });
    await until(() => printed().filter((r) => r.kind === "turn").length === turns.length && printed().some((r) => r.kind === "compaction"));
    rmSync(path);
    expect(await follow.exited).toBe(0);
    expect(follow.output().stderr).toMatch(/the file is gone; stopped following/);

    const rows = printed();
    expect(rows.filter((r) => r.kind === "turn").map((r) => r.messageId)).toEqual(turns.map((t) => t.messageId));
    const compactions = rows.filter((r) => r.kind === "compaction");
    expect(compactions).toEqual([expect.objectContaining({ index: 1, line: compaction!.line, compactionKind: compaction!.kind, facts: expect.any(Object) })]);
    // The row comes after every turn before the compaction's line and before every turn after it.
    const at = rows.indexOf(compactions[0]!);
    for (const [i, row] of rows.entries()) if (row.kind === "turn") expect(i < at, `turn at line ${row.line}`).toBe(row.line < compaction!.line);
  }, 60_000);

  it("inspect --follow prints the turns and the compaction with the file's own figures, no audit", async () => {
    const bytes = readFileSync(fixturePath("composed/pi-v3-tree.jsonl"));
    const fresh = loadSession(bytes);
    const [compaction] = fresh.recordedCompactions(fresh.defaultLeafId);
    const path = join(temp, "inspected.jsonl");
    writeFileSync(path, bytes);
    const follow = startFollowing(path, "inspect");
    const printed = () =>
      follow
        .output()
        .stdout.split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await until(() => printed().some((r) => r.kind === "compaction"));
    rmSync(path);
    expect(await follow.exited).toBe(0);
    expect(printed().filter((r) => r.kind === "turn")).toHaveLength(fresh.usage(fresh.defaultLeafId).turns.length);
    expect(printed().find((r) => r.kind === "compaction")).toEqual({
      kind: "compaction",
      index: 1,
      line: compaction!.line,
      compactionKind: compaction!.kind,
      trigger: compaction!.trigger,
      tokensBefore: compaction!.tokensBefore,
      tokensAfter: compaction!.tokensAfter,
    });
  }, 30_000);

  it("stops, saying so, when another file takes the name", async () => {
    const path = join(temp, "replaced.jsonl");
    writeFileSync(path, readFileSync(fixturePath("composed/pi-v3-tree.jsonl")));
    const follow = startFollowing(path);
    await until(() => follow.output().stdout.includes('"kind":"turn"'));
    const other = join(temp, "other.jsonl");
    writeFileSync(other, "{}\n");
    renameSync(other, path);
    expect(await follow.exited).toBe(0);
    expect(follow.output().stderr).toMatch(/replaced by another file under the same name; stopped following/);
  }, 30_000);
});
