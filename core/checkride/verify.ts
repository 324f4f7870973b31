/**
 * The verifying command: the last build, test, lint, type-check or run of
 * the program, and whether it passed. A command is significant when one of
 * its steps (after comments, `cd`, environment assignments, split at `&&`,
 * `;`, `||`) is such a check; `ls`, `cat`, `sed -n`, `git status` never are.
 * A commit, push or repository script is one only when its output shows the
 * checks it ran (a hook's test summary, a script's PASS/FAIL counts).
 *
 * Outcome: the exit code, unless the command pipes its output through a
 * filter (head, tail, tee, grep, …) or masks failure (`|| true`), or the exit
 * code is missing: then the output's own failure lines decide (compiler
 * errors, failing test counts), and its success lines, when it has any.
 */
import { namedErrorLineOf } from "../signals.ts";
import { syntaxOnly } from "./shell-writes.ts";

/** Steps that check the work. */
const CHECK_STEP: RegExp[] = [
  /^(npm|pnpm|yarn|bun)\s+(run\s+)?(test|tests|build|lint|check|typecheck|type-check|tsc|e2e|ci|verify|compile|start|dev)\b/,
  /^(npm|pnpm|yarn)\s+(t|ci)\b/,
  // A script named for what it checks ("test:unit", "lint:fix" is not: fixing checks nothing).
  /^(npm|pnpm|yarn|bun)\s+(run\s+)?(test|build|lint|check|typecheck|e2e|verify)(:[\w:-]+)?\b(?!:fix)/,
  // Task runners running a checking task (mise, Taskfile, nx, turbo).
  /^(mise(\s+(run|r))?|task|nx(\s+run)?|turbo(\s+run)?)\s+(\S+:)?(test|tests|build|lint|check|typecheck|ci|verify|e2e)\b/,
  // Checkers run through the package manager.
  /^(pnpm|npm|yarn|bun)\s+(exec\s+(--\s+)?|dlx\s+|x\s+)?(tsc|tsgo|vitest|jest|eslint|biome\s+(check|lint|ci)|oxlint|oxfmt\s+--check|prettier\s+--check|playwright\s+test|astro\s+check|svelte-check|vue-tsc|mocha)\b/,
  /^(oxlint|astro\s+check|svelte-check|vue-tsc|ruff\s+check|black\s+--check|isort\s+--check)\b/,
  /^(npx|pnpx|bunx|yarn dlx)\s+(tsc|tsgo|vitest|jest|eslint|biome(?!\s+format\b[^|;&]*--write)|prettier\s+--check|playwright|mocha|ava|tsx|ts-node|svelte-check|vue-tsc|markdownlint(-cli2)?|stylelint|htmlhint|astro\s+check)\b/,
  /^(tsc|tsgo|vitest|jest|eslint|biome(?!\s+format\b[^|;&]*--write)|mocha|pytest|mypy|ruff|flake8|pylint|pyright|tox|nox|rspec|phpunit|gotestsum|golangci-lint|shellcheck|hadolint|markdownlint(-cli2)?|stylelint|yamllint|actionlint)\b/,
  /^cargo\s+(\+\S+\s+)?(build|test|check|clippy|run|nextest|fmt\s+--check|bench)\b/,
  // Smart-contract toolchains: Hardhat (usually through npx), Foundry, Truffle, Anchor.
  /^((npx|pnpx|bunx|(pnpm|npm|yarn)\s+(exec|dlx)|yarn)\s+)?(hardhat|truffle)\s+(test|compile|check)\b|^forge\s+(test|build)\b|^anchor\s+(test|build)\b/,
  /^go\s+(build|test|vet|run)\b/,
  /^(python3?|py|uv run|poetry run|pipenv run)\s+(-m\s+(pytest|unittest|mypy|ruff|compileall)|\S+\.py)\b/,
  /^(node|deno|bun|tsx|ts-node)\s+(test\s+|run\s+|check\s+)?\S+\.(m?[jt]s|cjs)\b/,
  // A program of another scripting language run (`ruby q3/solve.rb`, `perl t/run.pl`, `php bin/check.php`).
  /^(ruby|perl|php|Rscript|lua|julia)\s+\S+\.(rb|pl|php|R|lua|jl)\b/,
  /^deno\s+(test|check|lint)\b/,
  // Framework builds run directly (or from node_modules/.bin): a build checks the work whatever starts it.
  /^((npx|pnpx|bunx|(pnpm|npm|yarn)\s+(exec|dlx))\s+)?((astro|vite|next|nuxt|remix|svelte-kit|gatsby|ng|vue-cli-service|webpack|rollup|parcel)\s+build\b|ng\s+test\b|wrangler\s+(deploy|publish)\b.*\s--dry-run\b|wrangler\s+dev\b)/,
  // Vite+ (`vp`): its own build, test, check and lint, and a project task run by name (`vp run worker:dev`).
  /^vp\s+((build|test|check|lint)\b|run\s+(\S+:)?(test|tests|build|lint|check|typecheck|dev|start|e2e)\b)/,

  // Tauri builds the app and runs it (`npm run tauri dev`, `cargo tauri build`).
  /^((npm|pnpm|yarn|bun)\s+(run\s+)?|cargo\s+|(npx|pnpx|bunx)\s+)tauri\s+(dev|build)\b/,

  // make/just run their default or a checking target; formatting, cleaning and installing check nothing.
  /^(make|just)\b(?!\s+(-\S+\s+)*(fmt|format|clean|install|setup|deps|fix|docs?|release|deploy|publish|bump|down|stop|teardown|logs|shell|ps|compose-down|docker-down)\b)/,
  /^(ninja|cmake\s+--build|bazel\s+(build|test|run)|gradle|\.\/gradlew|gradlew(\.bat)?|mvn|mvnw|\.\/mvnw)\b/,
  /^(dotnet)\s+(build|test|run)\b/,
  // A container image built from the work (a build, whatever builds it).
  /^(docker|podman|nerdctl)\s+(buildx\s+)?build\b|^docker\s+compose\s+build\b|^buildctl(-daemonless\.sh)?\s+build\b/,
  /^(swift)\s+(build|test|run)\b|^xcodebuild\b/,
  /^(elixir\s+-S\s+)?mix\s+(test|compile|credo|dialyzer)\b|^(bundle exec\s+)?(rake|rspec|rubocop)\b/,
  /^(sbt|lein|stack|cabal)\s+(test|compile|build|check)\b|^(flutter|dart)\s+(test|analyze|build)\b|^zig\s+build\b|^ctest\b/,
  /^php\s+artisan\s+test\b|^(phpunit|pest|phpstan|psalm)\b/,
  // Hooks run on demand (pre-commit's linters), static analysers, validators and documentation builds.
  /^pre-commit\s+run\b|^(staticcheck|bandit|semgrep|cppcheck|clang-tidy|tflint|hadolint)\b|^terraform\s+validate\b|^helm\s+lint\b/,
  /^(mkdocs|jekyll)\s+build\b|^sphinx-build\b|^R\s+CMD\s+check\b|^Rscript\s+-e\s+\S*(devtools::(test|check)|testthat::)/,
  /^(\.\/|\.\\)?(target\/(debug|release)\/\S+|scripts?\/(test|check|build|verify)\S*|test\.sh|run-tests\S*)/,
  // Not Spec Kit's check-prerequisites: it checks that the feature's spec files are there, not the work.
  /^(pwsh|powershell)(\.exe)?\s+.*\b(test|build|check(?!-prerequisites)|verify)\S*\.ps1\b/i,
  /^(bash|sh|zsh)\s+\S*(test|check(?!-prerequisites)|build|verify)\S*\.sh\b/,
  // Nix builds and checks, and a flake app named for a check.
  /^nix\s+(build|flake\s+check)\b|^nix\s+run\s+\S*#(test|tests|build|lint|check|typecheck)\b/,
  // Syntax and validity checks: they check a file the agent wrote without running it.
  // A file named, not a redirection: `cat x.json | python3 -m json.tool 2>/dev/null` only pretty-prints what it reads.
  /^(node\s+(--check|-c)|(bash|sh|zsh)\s+-n|php\s+-l|ruby\s+-c|python3?\s+-m\s+(py_compile|json\.tool))\s+(?!\d?>)\S/,
  /^jq\s+(-e\s+)?(empty|\.)\s+\S+.*>\s*\/dev\/null/,
  // A request to a server on this machine (the one the agent started): a smoke test of the work.
  /^(curl|wget|http|https|xh)\s.*\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(:\d+)?\b/,
  // A health check of a deployed service that fails on an HTTP error (`curl -fsS https://app.example.dev/api/health`).
  /^curl(?=.*(\s-[a-zA-Z]*f[a-zA-Z]*|\s--fail(-with-body)?)(\s|$)).*\bhttps?:\/\/\S+\/(health|healthz|ok|status|ready|readyz|ping|livez?)\/?(["'\s]|$)/,
];

/**
 * Steps that check the work only when their output shows a check ran: a commit or push whose hooks ran
 * the test suite, a script of the repository that reports passes and failures (`doctor.sh`: "PASS=40 FAIL=0"),
 * a fixer that reports what it found (`pnpm fix` running ultracite: "Found 0 warnings and 0 errors.").
 */
const CHECKS_WHEN_OUTPUT_SAYS =
  /^(git\s+(commit|push)\b|(\.\/|\.\\)\S+|scripts?\/\S+|(bash|sh|zsh)\s+\S+\.sh\b|(npm|pnpm|yarn|bun)\s+(run\s+)?[\w:-]*fix\b|(npx\s+|pnpm\s+exec\s+|bunx\s+)?ultracite\b)/;
/** The line git prints for a commit it made, with its subject: `[branch 1a2b3c4] subject`. */
const COMMIT_SUBJECT_LINES = /^\[[^\]\n]+ [0-9a-f]{7,40}\][^\n]*$/gm;
/** A test run's summary: counts of passes or failures, as test runners and check scripts print them. */
const TEST_SUMMARY =
  /\bFound \d+ warnings? and \d+ errors?\b|\b\d+ problems? \(\d+ errors?, \d+ warnings?\)|\b\d+ (tests? )?(passed|passing)\b|\bTest Files\s+\d+|\btests? (passed|failed)\b|\b(PASS|FAIL)(ED)?\s*[=:]\s*\d+/i;

/** Filters after a pipe hide the exit code of the step before them. */
const OUTPUT_FILTER =
  /\|\s*(head|tail|tee|grep|rg|less|more|sed|awk|cut|sort|uniq|wc|jq|cat|findstr|select-string|sls|out-string)\b|\|\|\s*(true|:|echo)\b|;\s*(echo|true)\b|(?<![&>|0-9])&(?![&>])/i;

/** A program named by its path (`./venv/Scripts/python.exe`, `node_modules/.bin/vitest`) is that program. */
const PATH_TO_PROGRAM =
  /^(?:"[^"]*[\\/]|\S*[\\/])(python3?|py|node|npm|npx|pnpm|yarn|bun|deno|tsx|ts-node|tsc|vitest|jest|mocha|eslint|pytest|mypy|ruff|go|cargo|dotnet|mvn|gradle|make|phpunit|pest|phpstan)(?:\.exe|\.cmd|\.bat)?"?(?=\s|$)|^(?:\.\/)?node_modules\/\.bin\/([\w.-]+)(?=\s|$)/;

/** The options of a Python environment runner, with the values some of them take (`uv run --with pytest --frozen`). */
const RUNNER_OPTIONS = String.raw`(?:(?:--with|--with-requirements|--python|-p|--project|--directory|--package|--extra|--group|--env-file|--from|-e|--env)(?:=|\s+)\S+\s+|--?[\w-]+\s+)*`;
/** Runners of a project's named scripts, and the checking task they run: `hatch run test:cov`, `pixi run lint`. */
const PROJECT_TASK = new RegExp(
  String.raw`^((?:uv|poetry|pipenv|pdm|rye|hatch|pixi)\s+run|deno\s+task|composer(?:\s+run(?:-script)?)?|rye)\s+${RUNNER_OPTIONS}((?:[\w-]+:)?(?:test|tests|lint|check|typecheck|type-check|build|ci|verify|e2e)(?::[\w:-]+)?)(?=\s|$)`,
);
/** Python environment runners: what follows them is the program they run. */
const PYTHON_ENV_RUNNER = new RegExp(String.raw`^(?:(?:uv|poetry|pipenv|pdm|rye|hatch|pixi|pipx)\s+run|uvx)\s+${RUNNER_OPTIONS}`);

/** One step of a command line, without comments, `cd`, `env` and variable assignments. */
function cleanStep(step: string): string {
  let out = step.trim();
  out = out.replace(/^(\(|\{)\s*/, "");
  for (;;) {
    const next = out
      .replace(PATH_TO_PROGRAM, (_, program?: string, binary?: string) => program ?? binary ?? "")
      // Windows' launchers: npm.cmd, npx.cmd, python.exe.
      .replace(/^([\w-]+)\.(cmd|exe|bat)(?=\s|$)/i, "$1")
      .replace(/^(export\s+)?[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+/, "")
      .replace(/^env\s+/, "")
      // rtk (Rust Token Killer) runs the command after it and only shortens its output for the model.
      .replace(/^(time|timeout\s+\S+|nice|sudo|exec|corepack|rtk)\s+/, "")
      // `bun --bun run test` is `bun run test`: the flag only picks Bun's runtime over Node's.
      .replace(/^(bun|bunx)\s+--bun\s+/, "$1 ")
      // `npx @biomejs/biome check`, `bunx @playwright/test`: a scoped package runs its own program.
      .replace(/^(npx|pnpx|bunx|yarn\s+dlx|pnpm\s+dlx)\s+((?:-y|--yes)\s+)?@[\w.-]+\/([\w.-]+?)(?:@[\w.^~-]+)?(?=\s|$)/, "$1 $3")
      // A program run inside an environment (`conda run -n env python …`) is that program.
      .replace(/^(conda|mamba|micromamba)\s+run\s+((-n|--name|-p|--prefix)\s+\S+\s+|--no-capture-output\s+|--live-stream\s+)*/, "")
      // A task a project runner runs by name (`hatch run test`, `pdm run lint`, `composer test`, `deno task check`) is a task.
      .replace(PROJECT_TASK, (_, _runner, task: string) => `task ${task}`)
      // A program run in a Python environment (`uv run pytest`, `poetry run mypy src`, `uvx ruff check`) is that program;
      // a script so run is run by Python (`uv run check.py`), and coverage runs what it measures.
      .replace(PYTHON_ENV_RUNNER, "")
      .replace(/^coverage\s+run\s+((?:--[\w-]+(?:=\S+)?\s+)*)(-m\s+)?/, "python $2")
      .replace(/^(?=[^\s"'=]+\.py(?:\s|$))/, "python ")
      // So is one run with secrets or variables loaded (`doppler run -- bun test`, `op run -- …`, `dotenv -- …`, `cross-env A=1 jest`).
      .replace(/^(doppler\s+run|op\s+run|infisical\s+run|dotenvx\s+run|dotenv(-cli)?|aws-vault\s+exec|env-cmd)\b[^|;&]*?\s--\s+/, "")
      .replace(/^cross-env\s+/, "")
      // So is one run inside a pod or a container (`kubectl exec pod -- sh -c '…'`, `docker compose exec api pytest`).
      .replace(/^(kubectl|oc)\s+(\S+\s+)*?exec\b[^|;&]*?\s--\s+/, "")
      .replace(/^docker\s+(compose\s+)?exec\s+((-[a-zA-Z]+|--[\w-]+(=\S+)?)\s+)*[\w.-]+\s+/, "")
      // So is one run in a Nix shell, a devbox, mise's or direnv's environment (`nix develop -c pytest`).
      .replace(/^(nix\s+develop\s+(\S+\s+)?(-c|--command)|devbox\s+run|mise\s+exec\s+(\S+\s+)*?--|direnv\s+exec\s+\S+)\s+/, "")
      // Where a package manager runs (a workspace, a folder) does not change what it runs.
      .replace(/^(npm|pnpm|yarn|bun)\s+((--filter|-F|-C|--dir|--prefix|-w|--workspace|--cwd)(=|\s+)\S+\s+|(-r|--recursive|-s|--silent)\s+)+/, "$1 ")
      .replace(/^yarn\s+workspace\s+\S+\s+/, "yarn ")
      .replace(/^\$env:[A-Za-z_]+\s*=\s*("[^"]*"|'[^']*'|\S+)\s*/, "");
    if (next === out) return out;
    out = next;
  }
}

/** The steps of a command line: comment lines dropped, split at `&&`, `||`, `;`, `|` and newlines. */
export function commandSteps(command: string): string[] {
  const text = withoutHeredocBodies(command)
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n");
  return splitOutsideQuotes(text)
    .map(cleanStep)
    .flatMap((step) => {
      // `powershell -Command "…"`, `bash -c '…'`, `cmd /c "…"`, `nix-shell --run "…"`: the steps are those of the script inside.
      const inner = SHELL_WRAPPER.exec(step);
      return inner ? commandSteps(inner[2]!) : [step];
    })
    .filter((step) => step !== "" && !/^(cd|pushd|popd|set-location|push-location|sl)\b/i.test(step));
}

/**
 * The command without its heredocs' bodies (`cat > notes.md <<'EOF' … EOF`, `apply_patch <<'PATCH' …`):
 * a body is data, and its lines ("npm test" in a README being written) are no steps of the command.
 */
export function withoutHeredocBodies(command: string): string {
  if (!command.includes("<<")) return command;
  const kept: string[] = [];
  let terminator: string | undefined;
  for (const line of command.split("\n")) {
    if (terminator !== undefined) {
      if (line.trim() === terminator) terminator = undefined;
      continue;
    }
    kept.push(line);
    // The operator outside quoted text (blanked, so positions hold); its word may be quoted itself (<<'EOF').
    const at = line.replace(QUOTED_TEXT, (quoted) => " ".repeat(quoted.length)).indexOf("<<");
    terminator = at === -1 ? undefined : /^<<-?\s*(['"]?)([\w.-]+)\1/.exec(line.slice(at))?.[2];
  }
  return kept.join("\n");
}

/** Quoted text, whose `<<` is no heredoc. */
const QUOTED_TEXT = /'[^']*'|"(?:\\.|[^"\\])*"/g;

/** A shell started on a script given on its command line, and that script (group 2). */
const SHELL_WRAPPER =
  /^(?:(?:pwsh|powershell|bash|sh|zsh|cmd)(?:\s+-(?:NoProfile|NonInteractive|ExecutionPolicy\s+\S+|l|lc))*\s+(?:-Command|-c|\/c|-lc)|nix-shell(?:\s+(?!--run)\S+)*\s+--run)\s+(["'])([\s\S]*)\1(?:\s*\d?>>?&?\S+)*\s*$/i;

/** The steps of a command line, split at `&&`, `||`, `|`, `;` and newlines that are not inside quotes (a regex's `|` is not a pipe). */
function splitOutsideQuotes(text: string): string[] {
  const steps: string[] = [];
  let quote: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === ";" || c === "\n" || c === "|" || (c === "&" && text[i + 1] === "&")) {
      steps.push(text.slice(from, i));
      if ((c === "|" && text[i + 1] === "|") || c === "&") i++;
      from = i + 1;
    }
  }
  steps.push(text.slice(from));
  return steps;
}

/**
 * True when some step of the command builds, tests, lints, type-checks or runs the program, or (given
 * its output) is a commit, push or script whose output shows the checks it ran.
 */
/** `git stash` (or `push`, `save`, `-u`) sets the work aside; `git stash pop` or `apply` brings it back. */
const STASH_AWAY = /^git\s+stash(\s+(push|save|-)|\s*$)/;
const STASH_BACK = /^git\s+stash\s+(pop|apply)\b/;

/**
 * The steps that run on the work: a check run after `git stash` and before the stash comes back tests
 * the tree without the work (the base the session started from, to show a failure was there before).
 */
function stepsOnTheWork(steps: readonly string[]): string[] {
  let stashed = false;
  return steps.filter((step) => {
    if (STASH_AWAY.test(step)) stashed = true;
    else if (STASH_BACK.test(step)) stashed = false;
    return !stashed;
  });
}

export function isVerification(command: string, output = ""): boolean {
  if (computesVerdict(command)) return true;
  const steps = stepsOnTheWork(commandSteps(command)).filter((step) => !runsChoreProgram(step));
  if (steps.some((step) => CHECK_STEP.some((pattern) => pattern.test(step)) || isInlineCheck(step))) return true;
  // The step first: a command's output can be megabytes, and most commands are not commits or scripts.
  if (!steps.some((step) => CHECKS_WHEN_OUTPUT_SAYS.test(step))) return false;
  // git echoes the commit's subject ("[main 1a2b3c4] fix: all tests passed"): the subject reports nothing that ran.
  return TEST_SUMMARY.test(output.replace(COMMIT_SUBJECT_LINES, ""));
}

/** A script started by its shell or by its path: `bash scripts/x.sh --help`, `./run.sh`, `pwsh -File x.ps1`. */
const SCRIPT_RUN = /^(?:(?:bash|sh|zsh)\s+(?!-)|(?:pwsh|powershell)(?:\.exe)?\s+(?:-\w+\s+)*?-File\s+|(?=\.{1,2}[\\/]))("[^"]+"|'[^']+'|\S+\.(?:sh|bash|zsh|ps1)|\.{1,2}[\\/]\S+)/i;
/** Scripts that do a job rather than try the work: running one deploys, installs, cleans up, rewrites files (update, codemod, rename, seed) or exports the transcript. */
const CHORE_SCRIPT = /(deploy|release|publish|install|setup|bootstrap|clean|migrat|upload|backup|push|sync|transcript|update|codemod|rewrite|rename|seed)[^\\/]*$/i;
/** A program run by its interpreter, and the script it runs (group 1). */
const PROGRAM_RUN = /^(?:python3?|py|node|bun|deno|tsx|ts-node|ruby|perl|php)\s+(\S+\.(?:py|m?[jt]s|cjs|rb|pl|php))\b/;

/**
 * A program run that does a chore (`node scripts/deploy.mjs`, `python3 /tmp/transcript_export/render.py`):
 * no check of the work. Its file's name or its folder's says so.
 */
function runsChoreProgram(step: string): boolean {
  const script = PROGRAM_RUN.exec(step)?.[1];
  if (script === undefined) return false;
  const folder = script.replace(/[\\/][^\\/]*$/, "");
  return CHORE_SCRIPT.test(script) || (folder !== script && CHORE_SCRIPT.test(folder));
}

/**
 * The scripts a command runs by path or by its shell (not through a checker or a package manager),
 * leaving out those named for a chore: a script the session wrote, run, is a program run that checks
 * the work (LABELS.md), even when it only prints its usage.
 */
export function scriptsRun(command: string): string[] {
  return commandSteps(command)
    .map((step) => SCRIPT_RUN.exec(step)?.[1]?.replace(/^["']|["']$/g, ""))
    .filter((script): script is string => script !== undefined && !CHORE_SCRIPT.test(script));
}

/**
 * A program the agent wrote that works out a verdict and prints it: both a PASS and a FAIL word among
 * its strings (`status = '✓ PASS' if incomplete == 0 else '✗ FAIL'`, in a heredoc, `-c` or a PowerShell
 * block). LABELS.md: "a script the agent wrote to check its result".
 */
export function computesVerdict(command: string): boolean {
  if (/["'`]\s*(✓\s*)?PASS(ED)?\b[^"'`\n]*["'`]/.test(command) && /["'`]\s*(✗\s*)?FAIL(ED)?\b[^"'`\n]*["'`]/.test(command)) return true;
  // Or one that tallies the errors it finds and prints the tally (`errs += 1` … `print("done", errs, "error(s)")`).
  return COUNTS_FAILURES.test(command) && PRINTS.test(command);
}
/** A counter of errors or failures raised by one: `errs += 1`, `failures++`, `$errors++`. */
const COUNTS_FAILURES = /(?<![\w.])\$?(errs?|errors|error_count|n_errors|fails|failed|failures|failure_count|problems|mismatches)\s*(\+=\s*1\b|\+\+)/i;
const PRINTS = /\b(print|console\.(log|error)|echo|printf|Write-(Host|Output)|process\.stdout\.write)\b/;

/** `python -c "…"`, `node -e "…"`: a program the agent wrote on the command line. */
const INLINE_PROGRAM = /^(?:(python3?|py|uv run python3?)\s+-c|(node|bun|ts-node|tsx)\s+(?:-e|--eval))\s+(["'])([\s\S]*)\3\s*$/;
/** Modules that read, encode or print data: a program that imports only these makes content, it checks nothing of the work. */
const DATA_MODULES = new Set(
  "os sys io re json csv math time datetime pathlib base64 hashlib random string textwrap pprint glob shutil subprocess collections itertools functools typing struct zlib gzip PIL numpy pandas yaml toml tomllib fs path child_process util crypto".split(
    " ",
  ),
);

/**
 * A program written on the command line that checks the work (LABELS.md: "a script the agent wrote
 * to check its result"): it asserts, loads the project's own code (a relative import, or a module
 * other than the standard library's and the usual data ones), or talks to a service it set up
 * (a query, a connection, a request to this machine). One that only prints or encodes data, or calls a
 * remote API, is not a check.
 */
export function isInlineCheck(step: string): boolean {
  const match = INLINE_PROGRAM.exec(step);
  if (!match) return false;
  const code = match[4]!;
  if (/\bassert\b/.test(code)) return true;
  if (parsesFileOnly(code)) return true;
  if (match[1]) {
    for (const imported of code.matchAll(/^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))/gm)) {
      const modules = (imported[1] ?? imported[2]!).split(/\s*,\s*/).map((name) => name.split(".")[0]!);
      if (modules.some((name) => name !== "" && !DATA_MODULES.has(name))) return true;
    }
    return false;
  }
  if (/require\(\s*["'`]\.{1,2}\/|\bfrom\s+["'`]\.{1,2}\//.test(code)) return true;
  // A request counts when it goes to this machine (the service the agent started), not to a remote API it logs in to.
  return /\.(query|connect)\(|\bfetch\(\s*["'`]https?:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])\b/.test(code);
}

/**
 * A program that parses a file and prints only fixed words (`JSON.parse(fs.readFileSync('out.json'));
 * console.log('valid JSON')`): a validity check of a file, as `jq . out.json` is. One that prints what
 * it read looks at the data instead.
 */
function parsesFileOnly(code: string): boolean {
  if (!/JSON\.parse\(\s*(require\(\s*["'`]fs["'`]\s*\)|fs)\.readFileSync\(|\bjson\.load\(\s*open\(/.test(code)) return false;
  const printed = [...code.matchAll(/\b(?:console\.log|print)\(([^()]*)\)/g)].map((call) => call[1]!.trim());
  return printed.every((argument) => /^(["'`])[^"'`$]*\1$/.test(argument));
}

/** "cd dir && npm test" is the run of "npm test": the cd only says where. */
export function significantPart(command: string): string {
  return command
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .trim()
    .replace(/^(cd\s+("[^"]*"|'[^']*'|\S+)\s*(&&|;)\s*)+/, "");
}

/** Lines that say a check failed, whatever the exit code of the pipe. */
const FAILURE_LINES: RegExp[] = [
  /\berror TS\d{4,5}\b/,
  /^error(\[E\d{4}\])?:/m,
  /^\s*(FAIL|FAILED)\b/m,
  /\b[1-9]\d* (failed|failing|errors?)\b/,
  /^npm (ERR!|error)\s/m,
  /\bErrors? found in\b/,
  /^Traceback \(most recent call last\)/m,
  /\bpanicked at\b/,
  /\bBUILD FAILED\b|\bCompilation failed\b|\bBuild failed\b/,
  // xcodebuild's verdict ("** TEST FAILED **"), and a compiler's diagnostic at a place (swiftc, clang, gcc: "a.swift:281:13: error: …").
  /^\*\* (TEST|BUILD|ARCHIVE|ANALYZE)( \w+)? FAILED \*\*/m,
  /^\S+:\d+:\d+: (fatal )?error: /m,
  /^\s*✗|^\s*×/m,
  // The check never started: its runner or module is not there (`python -m pytest` in a venv without it).
  /: No module named \S+\s*$|\bcommand not found\b/m,
  // A remote or wrapped command's own report of its exit status, which a pipe after it hides (`kubectl exec … | tail`).
  /^command terminated with exit code [1-9]\d*\s*$/m,
  // Codex's sandbox refused or broke the command (older rollouts record no exit code beside it).
  /^failed in sandbox:/,
];
/** "Error: read ECONNRESET", "TypeError: …", "fatal: …" at the start of a line. */
export const NAMED_ERROR_LINE = /^\s*(\w*Error|error|fatal|FATAL)(\[\w+\])?:\s/m;
/** A script run by its interpreter (`python check.py`, `node verify.mjs`): most often one the agent wrote. */
const AGENT_SCRIPT = /^(python3?|py|uv run|poetry run|pipenv run|node|deno run|bun|tsx|ts-node)\s+(?!-)\S+\.(py|m?[jt]s|cjs)\b/;
/** Lines that say it passed: a count of passes with no failures, or a clean finish. */
const SUCCESS_LINES =
  /\b\d+ (passed|passing)\b|\bFinished\b.*\btarget|\bBuild succeeded\b|\b0 errors?\b|\ball tests passed\b|^ok\b|✓ built in \d|\bCompiled successfully\b|\[build\] Complete!/im;

export function pipesOutput(command: string): boolean {
  return OUTPUT_FILTER.test(command);
}

export function outputSaysFailed(output: string): boolean {
  return FAILURE_LINES.some((pattern) => pattern.test(output));
}

/**
 * Passed, failed or unknown. The exit code decides unless the output was
 * filtered or the code is missing; then the output's own lines decide.
 */
export function verificationOutcome(command: string, isError: boolean | undefined, output: string): boolean | undefined {
  // A program the agent wrote reports its own failure and may still exit 0 (a caught error printed):
  // its output decides (LABELS.md: "outcome from the output, not only the exit code").
  if (isError !== true && commandSteps(command).some((step) => isInlineCheck(step) || AGENT_SCRIPT.test(step)) && (outputSaysFailed(output) || NAMED_ERROR_LINE.test(output)))
    return false;
  // A verdict the program printed is its outcome, whatever it exited with.
  if (isError !== true && computesVerdict(command) && (/\bFAIL(ED)?\b/.test(output) || outputSaysFailed(output))) return false;
  const filtered = pipesOutput(command);
  // `svelte-check | grep profile` exiting 1 with nothing printed: grep matched no line, the check printed none it looked for.
  if (isError === true && endsInSearchThatMatchedNothing(command, output)) return true;
  // `check; pkill -f server`: the exit code is the cleanup's, not the check's.
  if (isError !== undefined && exitIsCleanups(command)) isError = undefined;
  if (isError !== undefined && (!filtered || isError)) return !isError;
  if (outputSaysFailed(output)) return false;
  if (isError === false) return true;
  if (SUCCESS_LINES.test(output)) return true;
  // `tsc --noEmit | head -20; echo "typecheck done"`: the check printed nothing but the command's own marker,
  // and a check that fails says why.
  return isError !== true && printedOnlyItsEchoes(command, output) ? true : undefined;
}

/** The output holds nothing but lines the command's own `echo` wrote (or nothing at all). */
function printedOnlyItsEchoes(command: string, output: string): boolean {
  const echoed = new Set(
    commandSteps(command).flatMap((step) =>
      /^echo\s+/.test(step)
        ? [
            step
              .replace(/^echo\s+(-[neE]+\s+)?/, "")
              .replace(/^(["'])(.*)\1$/, "$2")
              .trim(),
          ]
        : [],
    ),
  );
  if (echoed.size === 0) return false;
  return output.split("\n").every((line) => line.trim() === "" || echoed.has(line.trim()));
}

/** A search as the last command of a pipe: it exits 1 when no line matched. */
const SEARCH_FILTER = /^(grep|egrep|rg|findstr|select-string|sls)\b/i;

/**
 * A check piped into a search that printed nothing and exited 1: the search matched no line of the
 * check's output (no error of the files it looked for), so the exit code is the search's, not the check's.
 */
function endsInSearchThatMatchedNothing(command: string, output: string): boolean {
  const steps = commandSteps(command);
  if (steps.length < 2 || !SEARCH_FILTER.test(steps.at(-1)!) || /\s-(v|\w*c)\b/.test(steps.at(-1)!)) return false;
  const printed = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line !== "(no output)" && !STATUS_ONLY.test(line));
  return printed.length === 0;
}

/** Commands run after a check to tidy up (stop the server it started, remove a scratch file): their exit code says nothing of the check. */
const CLEANUP = /^(pkill|kill|killall|fuser\s+-k|rm|true|wait|echo|printf)\b/;

/**
 * A list run one after another (`a; b`, or a line each) whose last command is a cleanup: the
 * shell's exit code is that command's (pkill exits 1 when nothing was left to stop).
 */
function exitIsCleanups(command: string): boolean {
  const segments = syntaxOnly(command)
    .split(/;|\n/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== "" && !segment.startsWith("#"));
  if (segments.length < 2) return false;
  const last = segments.at(-1)!;
  // Only a cleanup on its own: `check; rm x && npm test` still exits with the test's code.
  return CLEANUP.test(last) && !/&&|\|\|/.test(last);
}

/** Lines that only report an exit status (Bun's `error: script "test" exited with code 1` among them): never the error to quote. */
const STATUS_ONLY =
  /^(exit code:?\s*-?\d+|process exited with code -?\d+|command exited with code -?\d+|error:\s+(script\s+)?"[^"]+"\s+exited with code -?\d+|wall time:.*|output:|chunk id:.*|original token count:.*|total output lines:.*)$/i;

/** A line that announces the errors listed under it ("Errors found in post.mdx:", "3 errors:"): the error is the next line. */
const ERRORS_HEADING = /^(\d+\s+)?errors?\b[^:]*:$|^found \d+ errors? in\b[^:]*:$/i;

/** The first non-empty line after `line` in `lines`, trimmed. */
function lineAfter(lines: readonly string[], line: string): string | undefined {
  const at = lines.findIndex((candidate) => candidate.trim() === line);
  for (let i = at + 1; at !== -1 && i < lines.length; i++) if (lines[i]!.trim() !== "") return lines[i]!.trim();
  return undefined;
}

/** The error's distinctive line: compiler errors and named errors first, never "Exit code N". */
export function failureLineOf(output: string): string | undefined {
  // Codex's "failed in sandbox: " says where it failed, not what: the command's own lines follow it.
  const lines = output
    .replace(/^failed in sandbox:\s*/, "")
    .split("\n")
    .filter((line) => !STATUS_ONLY.test(line.trim()));
  const text = lines.join("\n");
  // A test runner's FAIL line names the test; the error it failed on ("Error: Cannot find package …") names the failure.
  // cargo's "error: test failed, to rerun pass `--bin x`" says only that a test failed; the panic names which, and where.
  for (const pattern of [
    /^.*\berror TS\d{4,5}\b.*$/m,
    /^thread '[^'\n]+'( \(\d+\))? panicked at .*$/m,
    /^\S+:\d+:\d+: (fatal )?error: .*$/m,
    /^\s*error(\[E\d{4}\])?:.*$/m,
    /^\s*\w*(Error|Exception):\s.*$/m,
    /^\s*(FAIL|FAILED)\b.*$/m,
  ]) {
    const hit = pattern.exec(text);
    if (hit) return hit[0].trim();
  }
  // LABELS.md: "quote the line that names it". An output that names no error has no line to quote.
  const line = namedErrorLineOf(text);
  if (line === undefined || STATUS_ONLY.test(line)) return undefined;
  return ERRORS_HEADING.test(line) ? (lineAfter(lines, line) ?? line) : line;
}
