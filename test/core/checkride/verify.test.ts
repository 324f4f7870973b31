/**
 * The verifying command and its outcome: significant commands behind
 * comments, cd, env and && chains; outcomes of filtered pipes read from the
 * output; the error's distinctive line, never an exit status.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../core/checkride/facts.ts";
import { commandSteps, failureLineOf, isVerification, scriptsRun, verificationOutcome } from "../../../core/checkride/verify.ts";
import type { Message } from "../../../core/model.ts";

/** A shell call and its result, as a session records them. */
const call = (id: string, command: string): Message => ({ id, role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: `t${id}`, name: "bash", arguments: { command } }] });
const result = (id: string, text: string, isError: boolean): Message => ({
  id: `r${id}`,
  role: "toolResult",
  meta: { toolCallId: `t${id}`, isError },
  blocks: [{ type: "text", text }],
});

describe("which command verifies", () => {
  it.each([
    "npm test",
    "cd web && npm run build 2>&1 | head -30",
    "# build first\nCI=1 npx tsc --noEmit",
    "FOO=bar cargo test -p core",
    "cd contracts && npx hardhat test 2>&1",
    "ruby q3_swap_decoding/solve.rb 2>&1 | tail -15",
    "forge test -vv",
    "cd codex-rs && cargo fmt --all && cargo clippy -- -D warnings",
    "go test ./... -run Explain -v 2>&1 | tail -60",
    "python3 -m pytest -q",
    "python scripts/app.py",
    "just lint 2>&1",
    "make",
    "pnpm check-types 2>&1",
    "./target/debug/ocodex --help",
    "npm.cmd run build",
    "./venv/Scripts/python.exe code/generate.py",
    "node_modules/.bin/vitest run",
    // A program found by its node_modules/.bin path, and framework builds (LABELS.md: "whatever runs it").
    "./node_modules/.bin/biome check worker/index.ts",
    "./node_modules/.bin/astro build",
    "pnpm exec wrangler deploy --dry-run --outdir /tmp/out",
    // A check the agent wrote on the command line: it loads the project's code, asserts, or talks to what it set up.
    `python -c "from data.loader import get_dataloader; print(next(iter(get_dataloader()))[0].shape)"`,
    `python3 -c "import json; assert json.load(open('out.json'))['ok']"`,
    `node -e "const { Pool } = require('pg'); new Pool().query('SELECT 1').then(() => console.log('ok'))"`,
    `node -e "require('./dist/index.js').main()"`,
    // Where a package manager runs (a workspace, a folder, corepack) does not change what it runs.
    "corepack pnpm run lint",
    "pnpm --filter @acme/web test && pnpm --filter @acme/web build",
    "npm --prefix client run build",
    "yarn workspace api test",
    // A shell started on a script: its steps are the script's.
    `powershell -Command "Set-Location 'C:\\dev\\app'; npx vitest run --reporter=verbose 2>&1"`,
    "bash -lc 'cd api && go test ./...'",
    // Nix, syntax and validity checks, a smoke request to the server the agent started.
    "nix run .#build 2>&1 | tail -5",
    "nix flake check",
    "node --check scripts/bench.mjs",
    "bash -n scripts/install.sh",
    "jq . out/summary.json >/dev/null",
    "curl -sS http://127.0.0.1:8080/api/ready",
    "sleep 2; curl -s localhost:3000/health",
    // Bun's runtime flag, a scoped package run by its runner, TypeScript's native compiler, rtk's output filter in front.
    "bun --bun run check:lint 2>&1 | tail -30",
    "bunx --bun @biomejs/biome check --fix src/rpc/router/index.ts 2>&1",
    "npx -y @biomejs/biome@2.1.0 lint src",
    "bunx --bun tsgo --noEmit 2>&1 | head -20",
    "rtk cargo test",
    // A program the agent wrote that works out PASS or FAIL; a file parsed and only a fixed word printed.
    "python3 - <<'PY'\nimport pathlib\nrows = [(p.name, 'PASS' if '- [ ]' not in p.read_text() else 'FAIL') for p in pathlib.Path('checklists').glob('*.md')]\nprint(rows)\nPY",
    `node -e "JSON.parse(require('fs').readFileSync('opencode-session.json','utf8')); console.log('valid JSON')"`,
    "npm run tauri dev 2>&1",
    // A check run inside a Nix shell or another environment is that check.
    'cd /w && nix-shell --run "pytest -q" 2>&1 | tail -3',
    "nix develop -c cargo test",
    "devbox run pytest",
    // A Python environment runner runs the program after its options; a project runner's checking task is a task (LABELS.md: `uv run pytest`).
    "uv run pytest -q",
    "uv run --with pytest-asyncio --frozen pytest tests/test_api.py",
    "poetry run mypy src",
    "uvx ruff check .",
    "uv run scripts/check_links.py",
    "coverage run -m pytest",
    "hatch run test:cov",
    "pdm run lint",
    "pixi run test",
    "deno task check",
    "composer test",
    "npm exec -- vitest run",
    // Checkers of other ecosystems, hooks run on demand, validators and documentation builds.
    "flutter analyze",
    "dart test",
    "sbt test",
    "cabal test",
    "zig build test",
    "cmake --build build && ctest --output-on-failure",
    "elixir -S mix test",
    "php artisan test",
    "vendor/bin/phpunit --filter UserTest",
    "pre-commit run --all-files",
    "terraform validate",
    "mkdocs build --strict",
    "npx astro check",
    // mise runs a task by its name alone too.
    "mise ci 2>&1",
    // A check run with secrets loaded is that check; Vite+'s own checks and tasks; a dev server of the work run.
    "doppler run --project app --config ci -- bun test src/a.e2e.test.ts",
    "op run --env-file .env -- pytest",
    "cross-env NODE_ENV=test jest",
    "vp build && vp run worker:dev",
    "pnpm exec wrangler dev --port 8787",
    // A health check of a deployed service that fails on an HTTP error.
    "curl -fsS https://app-staging.example.dev/api/auth/ok",
    // A container image built, also inside a pod; a check run in a container.
    "docker build -t app:dev .",
    "kubectl -n lab exec buildkit -- sh -c 'buildctl-daemonless.sh build --frontend dockerfile.v0 --local context=/w' 2>&1 | tail -40",
    "docker compose exec -T api pytest -q",
    // A program that tallies the errors it finds and prints the tally.
    "python3 <<'EOF'\nerrs = 0\nfor f in files:\n    if bad(f):\n        print('ERR', f); errs += 1\nprint('done', errs, 'error(s)')\nEOF",
  ])("verifies: %s", (command) => expect(isVerification(command)).toBe(true));

  it("a commit, push or script of the repository verifies when its output shows the checks it ran", () => {
    const hookRanTests = "[main 1a2b3c4] fix: header\n\n Test Files  190 passed (190)\n      Tests  2311 passed (2311)\nTo github.com:acme/app.git";
    expect(isVerification("git push origin main", hookRanTests)).toBe(true);
    expect(isVerification("git add -A && git commit -m 'fix'", hookRanTests)).toBe(true);
    expect(isVerification("scripts/opencode/doctor.sh", "Summary: PASS=40 WARN=3 FAIL=0")).toBe(true);
    // Without such output they only record or run something.
    expect(isVerification("git push origin main", "To github.com:acme/app.git\n   cb8ce6f..7b24e0c  main -> main")).toBe(false);
    expect(isVerification("git commit -m 'x'", "treefmt.................Passed\ngit-secrets.............Passed")).toBe(false);
    expect(isVerification("scripts/deploy.sh", "deployed to staging")).toBe(false);
    // A program run for a chore (its file's or its folder's name says so) checks nothing.
    expect(isVerification("python3 /tmp/transcript_export/render.py session.jsonl out.md")).toBe(false);
    expect(isVerification("node scripts/deploy.mjs --prod")).toBe(false);
    expect(isVerification("cat << 'EOF' > update-dashboard.js\nfs.writeFileSync(f, x)\nEOF\nnode update-dashboard.js")).toBe(false);
    // A check run with the work stashed away tests the base the session started from, not the work.
    expect(isVerification("git stash && xcodebuild -scheme App test 2>&1 | tail -20")).toBe(false);
    expect(isVerification("git stash -u && npm test; git stash pop")).toBe(false);
    expect(isVerification("git stash pop && npm test")).toBe(true);
    expect(isVerification("git stash && npm test; git stash pop && npm test")).toBe(true);
    // The commit's own subject, echoed by git, reports nothing that ran.
    expect(isVerification("git commit -m 'fix: 12 tests passed again'", "[main 1a2b3c4] fix: 12 tests passed again\n 1 file changed")).toBe(false);
  });

  it.each([
    "ls -F logs/",
    "# look at the logs\nls -F logs/",
    "nl -ba src/a.ts | sed -n '1,80p'",
    "cd web && git status",
    "cat package.json | grep test",
    "just format",
    "make clean",
    "rg -n 'npm test' README.md",
    "echo done",
    'rg -n "TODO|FIXME|@ts-ignore|eslint-disable" app components',
    // A program that only prints or encodes data checks nothing.
    `python -c "import base64; from pathlib import Path; print(base64.b64encode(Path('a.png').read_bytes()).decode())"`,
    `node -e "console.log(process.version)"`,
    "pnpm exec wrangler deploy",
    "curl -s https://api.github.com/repos/acme/app/issues/12",
    "bash -c 'ls -la src'",
    "corepack enable",
    // A formatter writing its changes checks nothing; rtk in front of a reading command still reads.
    "bunx --bun @biomejs/biome format --write src/components/clients/client-form.tsx 2>&1",
    "rtk git status",
    "cat .git/entire-sessions/a.json 2>&1 | python3 -m json.tool 2>/dev/null | head -30",
    // Spec Kit's gate checks the spec's files, not the work; a request to a remote API logs in, it checks nothing.
    "powershell.exe -NoProfile -Command .specify/scripts/powershell/check-prerequisites.ps1 -Json -RequireTasks",
    "bash .specify/scripts/bash/check-prerequisites.sh --json",
    `node -e "fetch('https://github.com/login/device/code',{method:'POST'}).then(r=>r.json()).then(d=>console.log(d.user_code))"`,
    `node -e "const d = JSON.parse(require('fs').readFileSync('a.json','utf8')); console.log(d.items.length)"`,
    // Setting an environment up, or a runner's task that is not a check.
    "uv sync",
    "uv add pytest",
    "poetry install",
    "composer install",
    "deno task dev",
    "pre-commit install",
    "flutter pub get",
    "terraform apply",
    "curl -s https://api.example.com/v1/status",
    "curl -fsS https://example.com/install.sh",
    // Tearing down what a check started checks nothing; a fixer that reports nothing it found is no check.
    "make compose-down",
    "pnpm fix",
  ])("only looks around: %s", (command) => expect(isVerification(command)).toBe(false));

  it("a fixer that reports what it found is a check (`pnpm fix` running ultracite), read by that report", () => {
    expect(isVerification("pnpm fix", "Checked 41 files in 12ms. Found 0 warnings and 0 errors.")).toBe(true);
    expect(isVerification("npx ultracite fix", "Found 0 warnings and 3 errors.")).toBe(true);
  });

  it("Codex's 'failed in sandbox' fails the check; its error is the command's own line after it", () => {
    const output = "failed in sandbox: go: downloading go1.25.3 (linux/amd64)\ngo: download go1.25.3: mkdir /home/u/go/pkg/mod/cache: permission denied\n";
    expect(verificationOutcome("go test ./...", undefined, output)).toBe(false);
    expect(failureLineOf(output)).toBe("go: download go1.25.3: mkdir /home/u/go/pkg/mod/cache: permission denied");
  });

  it("a check the harness's time limit killed (exit 124) is read by what it printed before", () => {
    const timedOut = (id: string): Message => ({
      ...result(id, "command timed out after 20072 milliseconds\n> next build\n ✓ Compiled successfully in 4.1s\n○  (Static)  prerendered as static content", true),
      meta: { toolCallId: `t${id}`, isError: true, exitCode: 124 },
    });
    expect(extractFacts([call("1", "npm run build"), timedOut("1")]).lastRun).toMatchObject({ command: "npm run build", passed: true });
  });

  it("a wrapped command's own report of a non-zero exit fails it behind a pipe", () => {
    expect(verificationOutcome("kubectl exec pod -- sh -c 'make' 2>&1 | tail -40", false, "error: failed to start\ncommand terminated with exit code 1")).toBe(false);
  });

  it("a program that tallies errors failed when its tally is not zero, whatever it exited with", () => {
    const tally = "python3 <<'EOF'\nerrs = 0\nfor f in files:\n    errs += 1\nprint('done', errs, 'error(s)')\nEOF";
    expect(verificationOutcome(tally, false, "ERR a.yaml: unknown call foo()\ndone 39 error(s)\n")).toBe(false);
    expect(verificationOutcome(tally, false, "done 0 error(s)\n")).toBe(true);
  });

  it("splits chains and drops comments, cd and assignments", () => {
    expect(commandSteps("# c\ncd a && FOO=1 BAR='x y' npm test | tail -5")).toEqual(["npm test", "tail -5"]);
  });
});

describe("the outcome", () => {
  const tsErrors = "src/a.ts(3,1): error TS2305: Module '\"x\"' has no exported member 'y'.\nFound 1 error.";

  it("a filtered pipe's exit 0 does not hide compiler errors or failing tests", () => {
    expect(verificationOutcome("npm run build 2>&1 | head -30", false, tsErrors)).toBe(false);
    expect(verificationOutcome("npx vitest run | tail -5", false, "Tests  2 failed | 40 passed")).toBe(false);
    expect(verificationOutcome("npx vitest run | tail -5", false, "Tests  42 passed")).toBe(true);
  });

  it("a command sent to the background hides its exit code: the output decides", () => {
    const npmFailed = "npm error code ENOENT\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory";
    expect(verificationOutcome("npm run dev &>/tmp/dev.log &\nsleep 3 && cat /tmp/dev.log", false, npmFailed)).toBe(false);
    // A redirect (`2>&1`, `&>`) is not the background.
    expect(verificationOutcome("npm test 2>&1", false, "3 failed")).toBe(true);
  });

  it("a lint script's report of errors fails it behind a grep", () => {
    expect(verificationOutcome('node scripts/lint-posts.mjs -p a.mdx 2>&1 | grep -A1 "Errors"', false, "Errors found in content/a.mdx:\n  Content: link broken")).toBe(false);
  });

  it("xcodebuild's verdict and a compiler's diagnostic at a place fail a filtered run, and name its error", () => {
    const output = "/w/AppTests/UseCasesTests.swift:281:13: error: type 'MockRepository' does not conform to protocol 'Repository'\n** TEST FAILED **";
    const command = "xcodebuild -scheme App test 2>&1 | grep -E '(Test Suite|error:|TEST FAIL)'";
    expect(verificationOutcome(command, false, output)).toBe(false);
    expect(verificationOutcome(command, false, "** BUILD SUCCEEDED **")).toBe(true);
    expect(failureLineOf(output)).toBe("/w/AppTests/UseCasesTests.swift:281:13: error: type 'MockRepository' does not conform to protocol 'Repository'");
  });

  it("a failed cargo test's error is the panic that names the test, not cargo's summary", () => {
    const output =
      "thread 'tests::parser_tests::test_parse_call' (23930) panicked at src/tests/parser_tests.rs:676:21:\nassertion failed\nerror: test failed, to rerun pass `--bin obstruct`";
    expect(failureLineOf(output)).toBe("thread 'tests::parser_tests::test_parse_call' (23930) panicked at src/tests/parser_tests.rs:676:21:");
  });

  it("a check that printed nothing but the command's own echo, with no exit code to read, passed", () => {
    const command = 'npx tsc -p e2e/tsconfig.json --noEmit 2>&1 | head -20; echo "typecheck done"';
    expect(verificationOutcome(command, undefined, "typecheck done\n")).toBe(true);
    expect(verificationOutcome(command, undefined, "e2e/a.ts(1,1): error TS2304: Cannot find name 'x'.\ntypecheck done")).toBe(false);
    expect(verificationOutcome("npm test; echo done", undefined, "something else\ndone")).toBeUndefined();
  });

  it("a Windows filter (findstr, Select-String) hides the exit code as a Unix one does", () => {
    expect(verificationOutcome('npx tsc --noEmit 2>&1 | findstr /i "error"', false, "src/a.ts(154,29): error TS2559: Type 'false' has no properties.")).toBe(false);
    expect(verificationOutcome("npm run build | Select-String error", false, tsErrors)).toBe(false);
  });

  it("a program the agent wrote fails when its output says so, whatever its exit code", () => {
    const check = `node -e "const { Pool } = require('pg'); new Pool().query('SELECT 1').catch((e) => console.error(e))"`;
    expect(verificationOutcome(check, false, "Error: read ECONNRESET\n    at TCP.onStreamRead")).toBe(false);
    expect(verificationOutcome("python scripts/check_output.py", false, 'Traceback (most recent call last):\n  File "x"')).toBe(false);
    expect(verificationOutcome("python scripts/check_output.py", false, "all 12 rows match")).toBe(true);
    // A test runner's exit code still decides: its output may quote an error it expected.
    expect(verificationOutcome("npm test", false, "Error: expected to throw")).toBe(true);
  });

  it("an unfiltered exit code decides; a missing one falls back to the output", () => {
    expect(verificationOutcome("npm test", false, "3 failed")).toBe(true);
    expect(verificationOutcome("npm test", true, "")).toBe(false);
    expect(verificationOutcome("npm test", undefined, "error[E0425]: cannot find value")).toBe(false);
    expect(verificationOutcome("npm test", undefined, "12 passed")).toBe(true);
    expect(verificationOutcome("npm test", undefined, "done")).toBeUndefined();
  });

  it("a check followed by a cleanup (`; pkill -f server`): the exit code is the cleanup's, so the check's output decides", () => {
    const built = "> app@0.1.0 build\n> astro build\n09:16:37 [build] Complete!\n=== E2E ===\nok: 17 rows";
    const command = 'npm run build 2>&1 | tail -3 && nohup npm run dev >/tmp/dev.log 2>&1 & sleep 7; curl -s http://localhost:4321/api; pkill -f "astro dev" 2>/dev/null';
    expect(verificationOutcome(command, true, built)).toBe(true);
    expect(verificationOutcome(command, true, `${tsErrors}\n`)).toBe(false);
    // A cleanup joined by && runs only when the check passed: a failing exit is still the check's (or says nothing new).
    expect(verificationOutcome("npm test && rm -rf coverage", true, "")).toBe(false);
    expect(verificationOutcome("npm test; rm -rf coverage && npm run build", true, "")).toBe(false);
  });

  it("a check whose runner is missing failed, whatever the pipe's exit code, and that line is its error", () => {
    const output = "=== tests ===\n/w/.venv/bin/python: No module named pytest\n";
    expect(verificationOutcome("source .venv/bin/activate && python -m pytest tests/ 2>&1 | tail -15", false, output)).toBe(false);
    expect(failureLineOf(output)).toBe("/w/.venv/bin/python: No module named pytest");
    expect(verificationOutcome("npx tsc --noEmit | tail -3", false, "zsh: command not found: tsc")).toBe(false);
  });

  it("a check piped into a search that matched nothing (exit 1, no output) passed: the exit code is the search's", () => {
    const filtered = "npx svelte-check --tsconfig ./tsconfig.json 2>&1 | grep profile";
    expect(verificationOutcome(filtered, true, "(no output)\n\nCommand exited with code 1")).toBe(true);
    // What it found, and a search that counts or inverts, are read as before.
    expect(verificationOutcome(filtered, false, "svelte-check found 2 errors and 0 warnings in 1 file (src/routes/profile)")).toBe(false);
    expect(verificationOutcome("npm test 2>&1 | grep -c FAIL", true, "")).toBe(false);
  });

  it("a program that printed FAIL failed, whatever it exited with", () => {
    const tally = "python3 - <<'PY'\nprint('✓ PASS' if done else '✗ FAIL')\nPY";
    expect(verificationOutcome(tally, false, '[["requirements.md", 16, 12, 4, "✗ FAIL"]]')).toBe(false);
    expect(verificationOutcome(tally, false, '[["requirements.md", 16, 16, 0, "✓ PASS"]]')).toBe(true);
  });

  it("a program run in a conda environment is that program", () => {
    expect(isVerification("conda run -n MedAI python -m pytest -q")).toBe(true);
    expect(commandSteps("conda run -n ml --no-capture-output python scripts/check.py")).toEqual(["python scripts/check.py"]);
  });

  it("the error is the distinctive line, never a bare exit status", () => {
    expect(failureLineOf(`Exit code 2\n${tsErrors}`)).toBe("src/a.ts(3,1): error TS2305: Module '\"x\"' has no exported member 'y'.");
    expect(failureLineOf("Exit code 1")).toBeUndefined();
    // A line that announces the errors under it is not the error: the next line is.
    expect(failureLineOf("Errors found in content/aur-down-maintenance-error.mdx:\n  Content: External link appears broken (https://x.test/a) at line 52.")).toBe(
      "Content: External link appears broken (https://x.test/a) at line 52.",
    );
    // An output that names no error has no error line (LABELS.md: quote the line that names it), not its first line.
    expect(failureLineOf("\n> app@0.1.0 build\n> astro build\n[build] Complete!\nCommand exited with code 1")).toBeUndefined();
    expect(failureLineOf("Process exited with code 1\nError: ECONNREFUSED 127.0.0.1:5432")).toBe("Error: ECONNREFUSED 127.0.0.1:5432");
    // Bun's closing status line names no error; a test runner's FAIL line names the test, the error it failed on names the failure.
    const bunTest =
      " FAIL  src/a.test.ts [ src/a.test.ts ]\nError: Cannot find package '@/schema' imported from /app/src/a.ts\n Test Files  1 failed | 5 passed (6)\nerror: script \"test\" exited with code 1";
    expect(failureLineOf(bunTest)).toBe("Error: Cannot find package '@/schema' imported from /app/src/a.ts");
    expect(failureLineOf('error: "vitest" exited with code 1')).toBeUndefined();
  });

  it("in a session: the last verification wins over later look-around; its source is the call", () => {
    const facts = extractFacts([
      call("1", "npm run build 2>&1 | head -30"),
      result("1", `Exit code 0\n${tsErrors}`, false),
      call("2", "# check\nls -F logs/"),
      result("2", "a.log", false),
    ]);
    expect(facts.lastRun).toMatchObject({ command: "npm run build 2>&1 | head -30", passed: false, messageId: "r1", source: { messageId: "1" } });
    expect(facts.unresolvedError).toMatchObject({ messageId: "r1", text: "src/a.ts(3,1): error TS2305: Module '\"x\"' has no exported member 'y'." });
    expect(facts.unresolvedError!.source.span).toEqual([12, 12 + facts.unresolvedError!.text.length]);
  });

  it("the unresolved error is the last verification's, when it failed: a check fixed later, or another one, leaves none", () => {
    const failedThenFixed = extractFacts([call("1", "npx eslint docs"), result("1", "docs/a.md:3 error no-x", true), call("2", "npm test"), result("2", "12 passed", false)]);
    expect(failedThenFixed.lastRun).toMatchObject({ command: "npm test", passed: true });
    expect(failedThenFixed.unresolvedError).toBeUndefined();
    const stillFailing = extractFacts([
      call("1", "npm test"),
      result("1", "12 passed", false),
      call("2", "npx markdownlint-cli2 docs"),
      result("2", "docs/a.md:3 error MD013/line-length Line length", true),
    ]);
    expect(stillFailing.unresolvedError).toMatchObject({ messageId: "r2", text: "docs/a.md:3 error MD013/line-length Line length" });
  });

  it("a script the session wrote, then ran by its shell or its path, is a check (even for its usage); a chore script is not", () => {
    const patch = (id: string, path: string): Message => ({
      id,
      role: "assistant",
      meta: {},
      blocks: [{ type: "toolCall", id: `t${id}`, name: "write", arguments: { path, content: "#!/bin/sh" } }],
    });
    const facts = extractFacts(
      [
        call("1", "npm test"),
        result("1", "3 passed", false),
        patch("2", "scripts/protect-branches.sh"),
        result("2", "ok", false),
        patch("3", "scripts/deploy.sh"),
        result("3", "ok", false),
        call("4", "bash -n scripts/protect-branches.sh"),
        result("4", "", false),
        call("5", "bash scripts/protect-branches.sh --help"),
        result("5", "Usage: scripts/protect-branches.sh [owner/repo]", false),
        call("6", "./scripts/deploy.sh staging"),
        result("6", "deployed", false),
        call("7", "bash scripts/someone-elses.sh"),
        result("7", "done", false),
      ],
      { cwd: "/repo" },
    );
    expect(facts.lastRun).toMatchObject({ command: "bash scripts/protect-branches.sh --help", passed: true, messageId: "r5" });
    expect(scriptsRun("cd app && ./run.sh a; sh tools/x.sh; pwsh -NoProfile -File .\\check.ps1; ./scripts/deploy.sh")).toEqual(["./run.sh", "tools/x.sh", ".\\check.ps1"]);
  });

  it("a format that records no exit code (Cline) fails a run whose output opens a line with a named error", () => {
    const facts = extractFacts([
      { id: "1", role: "assistant", meta: {}, blocks: [{ type: "toolCall", id: "t1", name: "execute_command", arguments: { command: "npx ts-node scripts/check-db.ts" } }] },
      {
        id: "r1",
        role: "toolResult",
        meta: { toolCallId: "t1", toolName: "execute_command" },
        blocks: [{ type: "text", text: "Command executed.\nOutput:\nError: read ECONNRESET" }],
      },
    ]);
    expect(facts.lastRun).toMatchObject({ passed: false });
    expect(facts.unresolvedError?.text).toBe("Error: read ECONNRESET");
  });
});
