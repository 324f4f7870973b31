/**
 * `audit <folder>` on folders laid out as each agent lays out its own, built
 * from the real fixtures (copied into a temporary folder for the test only):
 * every session found, sidecars joined, non-sessions skipped with reasons,
 * links out refused, each compaction row equal to `audit <file>`'s, and the
 * cache serving an unchanged folder and re-reading a touched file.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.ts";
import { fixturePath, describeWithFixtures } from "../../helpers/fixtures.ts";
import { clineTask } from "../../helpers/composed-sessions.ts";

const LAYOUT: Record<string, string> = {
  ".claude/projects/-home-dev-cli/161e0df1-0000-4000-8000-000000000001.jsonl": "claude/entireio__cli__d0-161e0df1cb.jsonl",
  ".claude/projects/-home-dev-cli/f6f611b4-0000-4000-8000-000000000002.jsonl": "claude/entireio__cli__f9-f6f611b469.jsonl",
  ".codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-019f03e0.jsonl": "codex/EntityProcess__agentv__rollout-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl",
  ".pi/agent/sessions/--home-dev-pi-mono--/2026-11-02_before-compaction.jsonl": "pi/badlogic__pi-mono__before-compaction.jsonl",
  ".gemini/tmp/5f3a/chats/session-2026-11-02T10-00-cdb14b05.json": "gemini/savekirk__session-bridge__gemini-session-cdb14b05.json",
  ".copilot/session-state/9681650804/events.jsonl": "copilot/polecatspeaks__StarCar__events-11-9681650804.jsonl",
  "exports/opencode-ses_277daa810ffe.json": "opencode/savekirk__session-bridge__opencode-export-ses_277daa810ffe.json",
};
const SUBAGENT = ".claude/projects/-home-dev-cli/161e0df1-0000-4000-8000-000000000001/subagents/agent-q1.jsonl";

interface Row {
  kind: string;
  path: string;
  reason?: string;
  [key: string]: unknown;
}

function rowsOf(stdout: string): Row[] {
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
}

let root: string;
let cache: string;
const env = () => ({ ...process.env, SESSION_INSPECTOR_CACHE_DIR: cache });

beforeAll(() => {
  const temp = mkdtempSync(join(tmpdir(), "si-audit-folder-"));
  root = join(temp, "home");
  cache = join(temp, "cache");
  for (const [place, fixture] of Object.entries(LAYOUT)) {
    mkdirSync(dirname(join(root, place)), { recursive: true });
    copyFileSync(fixturePath(fixture), join(root, place));
  }
  mkdirSync(dirname(join(root, SUBAGENT)), { recursive: true });
  const line = (record: object) => JSON.stringify({ sessionId: "q1", version: "2.1.40", isSidechain: true, ...record });
  writeFileSync(
    join(root, SUBAGENT),
    [
      line({ type: "user", uuid: "q-u", parentUuid: null, message: { role: "user", content: "Read docs/." } }),
      line({ type: "assistant", uuid: "q-a", parentUuid: "q-u", message: { id: "m2", role: "assistant", content: [{ type: "text", text: "Read 3 files." }] } }),
    ].join("\n"),
  );
  writeFileSync(join(root, SUBAGENT.replace(/\.jsonl$/, ".meta.json")), JSON.stringify({ agentType: "general-purpose", description: "read docs" }));
  for (const file of clineTask()) {
    const place = join(root, ".cline/tasks/1730000000000", file.name.split("/").pop()!);
    mkdirSync(dirname(place), { recursive: true });
    writeFileSync(place, file.bytes);
  }
  writeFileSync(join(root, "notes.md"), "# my notes\n");
  writeFileSync(join(root, "exports/not-a-session.json"), JSON.stringify({ hello: "world" }));
  const outside = join(temp, "outside");
  mkdirSync(outside);
  copyFileSync(fixturePath("pi/JohnnyLai92__pi-mono__6edf3497.jsonl"), join(outside, "elsewhere.jsonl"));
  symlinkSync(outside, join(root, "link-out"));
  return () => rmSync(temp, { recursive: true, force: true });
});

describeWithFixtures("audit <folder>", () => {
  let rows: Row[];
  let firstStdout: string;
  beforeAll(() => {
    const result = runCli(["audit", root, "--json", "--jobs", "2"], env());
    expect(result.status).toBe(0);
    firstStdout = result.stdout;
    rows = rowsOf(result.stdout);
  }, 120_000);

  it("finds every session of every agent's layout, with the agent its layout names", () => {
    const sessions = rows.filter((row) => row.kind === "session");
    const byPath = Object.fromEntries(sessions.map((row) => [row.path, row.agent]));
    expect(byPath).toEqual({
      ".claude/projects/-home-dev-cli/161e0df1-0000-4000-8000-000000000001.jsonl": "claude",
      ".claude/projects/-home-dev-cli/f6f611b4-0000-4000-8000-000000000002.jsonl": "claude",
      ".cline/tasks/1730000000000/api_conversation_history.json": "cline",
      ".codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-019f03e0.jsonl": "codex",
      ".copilot/session-state/9681650804/events.jsonl": "copilot",
      ".gemini/tmp/5f3a/chats/session-2026-11-02T10-00-cdb14b05.json": "gemini",
      ".pi/agent/sessions/--home-dev-pi-mono--/2026-11-02_before-compaction.jsonl": "pi",
      "exports/opencode-ses_277daa810ffe.json": "opencode",
    });
    const claude = sessions.find((row) => row.path.endsWith("000000000001.jsonl"))!;
    expect(claude.files).toBe(3); // the session, its subagent and the subagent's meta file
    expect(sessions.find((row) => row.agent === "cline")!.files).toBe(clineTask().length);
  });

  it("skips what is not a session, and a link out of the folder, each with its reason", () => {
    const skipped = Object.fromEntries(rows.filter((row) => row.kind === "skipped").map((row) => [row.path, row.reason]));
    expect(skipped["notes.md"]).toBe("not a session file (.md)");
    expect(skipped["link-out"]).toMatch(/link out of the chosen folder/);
    expect(skipped["exports/not-a-session.json"]).toMatch(/unrecognised|not a|message/i);
    expect(Object.keys(skipped).some((path) => path.includes("elsewhere"))).toBe(false);
  });

  it("gives each compaction exactly the row `audit <file> --json` gives it", () => {
    for (const place of Object.keys(LAYOUT)) {
      const alone = runCli(["audit", join(root, place), "--json"]);
      expect(alone.status).toBe(0);
      // The library's rows leave out the model-view counts (it estimates sizes and shows none).
      const expected = (JSON.parse(alone.stdout) as { compactions: Record<string, unknown>[] }).compactions.map(
        ({ kind, viewTokensBefore: _b, viewTokensAfter: _a, viewTokensUnit: _u, ...row }) => ({
          kind: "compaction",
          path: place,
          compactionKind: kind,
          ...row,
        }),
      );
      expect(rows.filter((row) => row.kind === "compaction" && row.path === place)).toEqual(expected);
      const session = rows.find((row) => row.kind === "session" && row.path === place)!;
      expect(session.compactions).toBe(expected.length);
    }
    expect(rows.filter((row) => row.kind === "compaction").length).toBeGreaterThanOrEqual(7);
  }, 120_000);

  it("serves an unchanged folder from the cache and reads a touched file again", () => {
    const second = runCli(["audit", root, "--json"], env());
    expect(second.stderr).toMatch(/8 sessions, .*; 9 of 9 candidates from the cache/);
    // The cache keeps the printed lines themselves: the same bytes, not just equal values.
    expect(second.stdout).toBe(firstStdout);
    const touched = join(root, ".codex/sessions/2026/11/02/rollout-2026-11-02T10-00-00-019f03e0.jsonl");
    utimesSync(touched, new Date(), new Date(Date.now() + 5000));
    const third = runCli(["audit", root, "--json", "--jobs", "1"], env());
    // Touched, not changed: its compactions read what they read before, so none is audited again.
    expect(third.stderr).toMatch(/8 sessions, .*; 8 of 9 candidates from the cache, 2 compactions of changed sessions taken from their last audit/);
    expect(rowsOf(third.stdout)).toEqual(rows);
  }, 120_000);

  it("indexes everything again when the cache file is damaged, and serves the same rows", () => {
    const file = readdirSync(cache).find((name) => name.startsWith("library-") && name.endsWith(".jsonl"))!;
    const text = readFileSync(join(cache, file), "utf8");
    // Cut inside the last session's rows: its header promises more lines than follow.
    writeFileSync(join(cache, file), text.slice(0, text.lastIndexOf("\n", text.length - 2)));
    const damaged = runCli(["audit", root, "--json", "--jobs", "1"], env());
    expect(damaged.stderr).toMatch(/8 sessions, .*; 0 of 9 candidates from the cache/);
    expect(damaged.stdout).toBe(firstStdout);
    const healed = runCli(["audit", root, "--json"], env());
    expect(healed.stderr).toMatch(/; 9 of 9 candidates from the cache/);
    expect(healed.stdout).toBe(firstStdout);
  }, 120_000);

  it("writes the library's HTML report: figures only, the dropped facts' texts when asked", () => {
    const out = join(cache, "..", "library.html");
    const page = runCli(["audit", root, "--html", "--output", out], env());
    expect(page.status).toBe(0);
    const html = readFileSync(out, "utf8");
    for (const row of rows.filter((r) => r.kind === "session")) expect(html).toContain(row.path);
    const facts = rows.flatMap((row) => (row.kind === "compaction" ? (row.dropped as { facts: { fact: string }[] }).facts : []));
    expect(facts.length).toBeGreaterThan(0);
    // A fact's text that no path or figure could contain on its own.
    const distinctive = facts.map((f) => f.fact).find((text) => text.length > 12 && !/[<>&"']/.test(text))!;
    expect(html).not.toContain(distinctive);
    runCli(["audit", root, "--html", "--with-facts", "--output", out], env());
    expect(readFileSync(out, "utf8")).toContain(distinctive);
    expect(runCli(["audit", root, "--json", "--with-facts"], env()).stderr).toMatch(/--with-facts goes with --html/);
  }, 120_000);

  it("prints CSV with a header and one line per session, compaction and skipped file", () => {
    const csv = runCli(["audit", root, "--csv", "--no-cache"], env());
    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^kind,path,agent,format/);
    expect(lines.length - 1).toBe(rows.length);
  }, 120_000);

  it("refuses a --jobs that is not a whole number", () => {
    expect(runCli(["audit", root, "--jobs", "0"], env()).stderr).toMatch(/--jobs takes a whole number/);
  });
});
