/**
 * Anchors: what a reviewer keeps and what is noise, on composed messages, and
 * the shape thresholds pinned at their boundaries.
 */
import { describe, expect, it } from "vitest";
import {
  ANCHOR_DOUBT,
  anchorsOf,
  COMMIT_FULL,
  COMMIT_SHORT_MAX,
  COMMIT_SHORT_MIN,
  DIGEST_LENGTH,
  ID_FRAGMENT_MIN,
  PLACEHOLDER_MAX_DISTINCT,
  sessionIds,
} from "../../../core/checkride/anchors.ts";
import { commandOf } from "../../../core/checkride/tool-calls.ts";
import type { Message } from "../../../core/model.ts";
import { toolCallsById } from "../../../core/tool-info.ts";

const say = (id: string, role: Message["role"], text: string, meta: Record<string, unknown> = {}): Message => ({ id, role, meta, blocks: [{ type: "text", text }] });
const shell = (id: string, command: string): Message => ({
  id,
  role: "assistant",
  meta: {},
  blocks: [{ type: "toolCall", id: `call-${id}`, name: "bash", arguments: { command } }],
});
const output = (id: string, text: string, isError = false): Message => ({
  id: `r-${id}`,
  role: "toolResult",
  meta: { toolCallId: `call-${id}`, isError },
  blocks: [{ type: "text", text }],
});
const anchors = (branch: Message[]) => anchorsOf(branch, toolCallsById(branch), commandOf).map((a) => a.value);

describe("anchors", () => {
  it("error codes of every shape a failure names; private addresses and placeholder URLs are no places; ELIFECYCLE is only an exit status", () => {
    const branch = [
      say("u1", "user", "The dev server at http://192.168.56.1:9002 and https://app-xxxxx.run.app are down; see https://github.com/o/r/pull/5"),
      shell("c1", "npm install"),
      output("c1", "npm ERR! code ERESOLVE\nnpm ERR! code ELIFECYCLE", true),
      shell("c2", "gcloud run deploy"),
      output("c2", "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Error 403 on GO-2026-4918 and CVE-2024-12345", true),
    ];
    expect(anchors(branch).sort()).toEqual(["CVE-2024-12345", "ERESOLVE", "Error 403", "GO-2026-4918", "PERMISSION_DENIED", "https://github.com/o/r/pull/5"]);
  });

  it("markdownlint rules, Node's and pnpm's ERR_ codes, Python's errno and Windows' error numbers behind a failure are found", () => {
    const branch = [
      shell("c1", "npx markdownlint-cli2 docs"),
      output("c1", "docs/a.md:3 MD013/line-length Line length", true),
      shell("c2", "pnpm build"),
      output("c2", " ERR_PNPM_ABORTED_REMOVE_MODULES_DIR_NO_TTY  Aborted removal of modules directory due to no TTY", true),
      shell("c3", "python gui.py"),
      output("c3", "PermissionError: [Errno 13] Permission denied: '/sys/x'", true),
      shell("c4", "bash export.sh"),
      output("c4", "CreateFileMapping: Win32 error 5", true),
    ];
    expect(anchors(branch).sort()).toEqual(["ERR_PNPM_ABORTED_REMOVE_MODULES_DIR_NO_TTY", "Errno 13", "MD013", "Win32 error 5"]);
    // Python's errno (the ENOENT it prints beside) and an audit's GHSA ids, by the dozen, wait as candidates.
    const audit = [...branch, shell("c5", "npm audit"), output("c5", "lodash  GHSA-jf85-cpcp-j695  high", true)];
    const found = anchorsOf(audit, toolCallsById(audit), commandOf);
    expect(
      found
        .filter((a) => a.why === ANCHOR_DOUBT.listedCode)
        .map((a) => a.value)
        .sort(),
    ).toEqual(["Errno 13", "GHSA-jf85-cpcp-j695"]);
  });

  it("a commit the assistant names only in prose waits as a candidate; one shown short and in full is one anchor", () => {
    const branch = [
      say("a1", "assistant", "The regression came with commit 3b1f2e9a, I think."),
      shell("c1", "git log --oneline -1 0759def"),
      output("c1", "0759def6dab637307487b936739ccb6a3ffa2684 feat: add export"),
      say("a2", "assistant", "So `0759def6dab637307487b936739ccb6a3ffa2684` (0759def) added the export."),
    ];
    const found = anchorsOf(branch, toolCallsById(branch), commandOf);
    expect(found.map((a) => [a.value, a.why])).toEqual([
      ["0759def6dab637307487b936739ccb6a3ffa2684", undefined],
      ["3b1f2e9a", ANCHOR_DOUBT.commitInProse],
    ]);
    expect(found[0]!.mentions).toBe(3);
  });

  it("a URL ends where CJK text or full-width punctuation begins; Claude Code's commit trailer link is boilerplate", () => {
    const branch = [
      say("a1", "assistant", "打开 https://entire.io/dashboard，在你的仓库里看"),
      shell("c1", 'git commit -m "fix\n\nGenerated with [Claude Code](https://claude.com/claude-code)"'),
    ];
    expect(anchors(branch)).toEqual(["https://entire.io/dashboard"]);
  });

  it("a file name a chat client turned into a link ('[STATUS.md](http://STATUS.md)') is no place; a site linked by its name is", () => {
    const branch = [say("u1", "user", "then update [issues.md](http://issues.md) and [STATUS.md](http://STATUS.md); see [google.com](https://google.com)")];
    expect(anchors(branch)).toEqual(["https://google.com"]);
  });

  it("a format that records no error flag (Cline) shows its failures by their output", () => {
    const failed: Message = {
      id: "r-c1",
      role: "toolResult",
      meta: { toolCallId: "call-c1" },
      blocks: [{ type: "text", text: "src/a.ts(3,1): error TS2304: Cannot find name 'x'.\nFound 1 error." }],
    };
    expect(anchors([shell("c1", "npx tsc --noEmit"), failed])).toEqual(["TS2304"]);
  });

  it("keeps commits someone refers to, the commit a session made, issue refs, URLs and shaped error codes", () => {
    const branch = [
      say("u1", "user", "Revert commit 4f1c2ab9, see #318 and https://github.com/o/r/issues/318 — it fails with TS2305 and ENOENT."),
      shell("c1", "git commit -m fix"),
      output("c1", "[main 9a8b7c6] fix\n 1 file changed"),
      say("a1", "assistant", "Fixed in `9a8b7c6`; HTTP 404 came from the proxy."),
    ];
    expect(anchors(branch)).toEqual(expect.arrayContaining(["4f1c2ab9", "#318", "https://github.com/o/r/issues/318", "TS2305", "ENOENT", "9a8b7c6", "HTTP 404"]));
  });

  it("graded: commits, codes of a failure or a command, an issue the human names; candidates with why: links, other refs, codes only in prose", () => {
    const branch = [
      say("u1", "user", "Work on issue 318 (see #12 and https://github.com/o/r/pull/9); the log said EACCES once."),
      shell("c1", "git show 4f1c2ab9 && curl https://docs.example.dev/guide"),
      output("c1", "tsc: error TS2305: Module has no exported member", true),
      say("a1", "assistant", "Tracked in #77, docs at https://docs.example.dev/guide; TS2305 is from the old export."),
    ];
    const found = anchorsOf(branch, toolCallsById(branch), commandOf);
    const graded = found.filter((a) => a.why === undefined).map((a) => a.value);
    const candidates = Object.fromEntries(found.filter((a) => a.why !== undefined).map((a) => [a.value, a.why]));
    expect(graded.sort()).toEqual(["#318", "4f1c2ab9", "TS2305"]);
    expect(candidates).toEqual({
      "#12": ANCHOR_DOUBT.ref,
      "#77": ANCHOR_DOUBT.ref,
      EACCES: ANCHOR_DOUBT.code,
      "https://github.com/o/r/pull/9": ANCHOR_DOUBT.link,
      "https://docs.example.dev/guide": ANCHOR_DOUBT.link,
    });
    // One sure mention is enough: TS2305 said first in a failure stays graded when the assistant repeats it in prose.
    expect(found.find((a) => a.value === "TS2305")).toMatchObject({ mentions: 2 });
    // And a code first met in prose becomes graded once a failure shows it.
    const later = [say("u1", "user", "Watch for EACCES."), shell("c1", "npm ci"), output("c1", "npm ERR! code EACCES", true)];
    expect(anchorsOf(later, toolCallsById(later), commandOf).find((a) => a.value === "EACCES")?.why).toBeUndefined();
  });

  it("drops the session's own ids and their fragments, UUID fragments, placeholders, shouting words and boilerplate URLs", () => {
    const branch = [
      say(
        "b3a98e80-2bd5-4c1e-9f00-1234abcd5678",
        "user",
        "ERROR: EDITS ENFORCEMENT failed; see https://opensource.org/licenses/MIT and https://example.com/x and http://json-schema.org/draft-07/schema",
        { sessionId: "0db2eb3b-5ed8-4b70-88c6-a3f7104eb251" },
      ),
      say(
        "a1",
        "assistant",
        "git shows a1b2c3d4e5f6 and deadbeef12 and 0123456789abcdef; the session 0db2eb3b was b3a98e80 in commit a3f7104eb251; request 77c0e1f2-0000-4000-8000-00000000abcd was logged at the commit.",
      ),
    ];
    expect(anchors(branch)).toEqual([]);
  });

  it("a session id shown by its first seven characters, git's empty tree, a tool's build hash beside its version and abc123-style examples are no commits", () => {
    const branch = [
      say("u1", "user", "look at the git status", { sessionId: "e04f4553-7ae8-474f-9cdd-4c45431c0437" }),
      shell("c1", "entire status && entire version && git cat-file -p HEAD"),
      output(
        "c1",
        "[Claude Code] e04f455   started just now\nEntire CLI 0.4.4 (2f0ad9ab)\ntree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nExample: the shadow branch entire/abc1234-fd5432\nparent 9c41e7d",
      ),
      say(
        "a1",
        "assistant",
        "In git: session e04f455 runs Entire CLI 0.4.4 (2f0ad9ab); HEAD's tree is 4b825dc642cb6eb9a060e54bf8d69288fbee4904, its parent 9c41e7d, as abc1234 in the example.",
      ),
    ];
    expect(anchors(branch)).toEqual(["9c41e7d"]);
  });

  it("hex in a git output counts only when someone refers to it; pack names, branch-name parts, digests and diff blob ids never", () => {
    const branch = [
      shell("c1", "git log --oneline -3 && git count-objects -v"),
      output("c1", "5f2e9d1 one\n7c3b2a1 two\npack-5f600f1f85a9a2abd3961705f11f9722ec30d40f.pack"),
      say("a1", "assistant", "The bad commit is 7c3b2a1 (branch entire/6ca4281-6b86b2); the md5 went from 48f554e4 to bfb70aa9 in git.\nindex 20edef5..f55e657 100755"),
    ];
    expect(anchors(branch)).toEqual(["7c3b2a1"]);
  });

  it(`a short hex that begins a ${DIGEST_LENGTH}-character digest is the digest's prefix, not a commit`, () => {
    const branch = [
      shell("c1", "md5 .git/index"),
      output("c1", "bfb70aa91de94955ceda432ff3fcbaff"),
      say("a1", "assistant", "git says the index is now `bfb70aa9`, commit `7c3b2a19`."),
    ];
    expect(anchors(branch)).toEqual(["7c3b2a19"]);
  });

  it("a command that writes a file keeps its own URLs (the one curl fetched); the body of a heredoc it writes does not", () => {
    const branch = [shell("c1", "curl -sL https://cdn.example.dev/pieces/wP.svg -o assets/wP.svg"), shell("c2", "cat > notes.md <<'EOF'\nsee https://docs.example.dev/guide\nEOF")];
    expect(anchors(branch)).toEqual(["https://cdn.example.dev/pieces/wP.svg"]);
  });

  it("URLs in an edit's content, API endpoints in commands and URL templates are not anchors", () => {
    const branch: Message[] = [
      {
        id: "a1",
        role: "assistant",
        meta: {},
        blocks: [{ type: "toolCall", id: "e1", name: "write", arguments: { path: "a.ts", content: 'fetch("https://registry.npmjs.org/x")' } }],
      },
      shell("c2", "curl https://api.github.com/repos/o/r/issues/1 && curl https://docs.acme.dev/page"),
      say("a2", "assistant", "calling http://{host}:{port}/v1"),
    ];
    expect(anchors(branch)).toEqual(["https://docs.acme.dev/page"]);
  });

  it("every anchor carries its source, with a span when it stands in the message text", () => {
    const branch = [say("u1", "user", "see #318")];
    expect(anchorsOf(branch, new Map(), commandOf)[0]!.source).toEqual({ messageId: "u1", span: [4, 8], quote: "#318", role: "user" });
  });
});

describe("anchor thresholds at their boundaries", () => {
  const referred = (hex: string) => anchors([say("a", "assistant", `git commit ${hex} fixed it`)]);

  it(`commits are ${COMMIT_SHORT_MIN}–${COMMIT_SHORT_MAX} or ${COMMIT_FULL} hex characters`, () => {
    const hex = (n: number) => "9e3f1c7b5a2d4e6f8091a3c5e7d9b2f4a6c8e0d1".slice(0, n);
    expect(referred(hex(COMMIT_SHORT_MIN))).toEqual([hex(COMMIT_SHORT_MIN)]);
    expect(referred(hex(COMMIT_SHORT_MAX))).toEqual([hex(COMMIT_SHORT_MAX)]);
    expect(referred(hex(COMMIT_SHORT_MAX + 1))).toEqual([]);
    expect(referred(hex(COMMIT_FULL))).toEqual([hex(COMMIT_FULL)]);
    expect(referred(hex(COMMIT_FULL - 1))).toEqual([]);
  });

  it(`hex with at most ${PLACEHOLDER_MAX_DISTINCT} distinct characters is a pattern`, () => {
    expect(referred("a1a1b2b2")).toEqual([]); // 4 distinct
    expect(referred("a1a1b2b3")).toEqual(["a1a1b2b3"]); // 5 distinct
  });

  it(`ids and their fragments of ${ID_FRAGMENT_MIN}+ characters are the session's own`, () => {
    const ids = sessionIds([say("x", "user", "", { requestId: "req_9e3f1c7-5a2d4e6" })]);
    expect(ids.has("9e3f1c7")).toBe(true); // 7 characters
    expect(ids.has("5a2d4e6")).toBe(true);
    const short = sessionIds([say("x", "user", "", { requestId: "req_9e3f1c-5a2d4e" })]);
    expect(short.has("9e3f1c")).toBe(false); // 6 characters: too common to exclude
  });
});
