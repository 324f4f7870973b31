import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shellFolderCopies, shellWrittenPaths, syntaxOnly } from "../../../core/checkride/shell-writes.ts";
import { codeModeCommands, codeModePatches, runningCell } from "../../../core/checkride/codex-code-mode.ts";

describe("shellWrittenPaths", () => {
  it.each([
    ["echo hi > notes.txt", ["notes.txt"]],
    ["cat >> src/app.css <<'EOF'\n.a > .b { color: red }\nEOF", ["src/app.css"]],
    ["npm test 2>&1 | tee -a log/test.log", ["log/test.log"]],
    ["go build ./... 2>/dev/null && echo ok >/dev/null", []],
    ["echo 'a > b' && rg '->' src", []],
    ['printf "%s" "$x" > "$OUT"', []],
    ["cmd 2>&1 | tail -20", []],
    ["python gen.py > out/data.json; sort a >> b.txt", ["out/data.json", "b.txt"]],
    ["sed -i 's/a/b/' src/a.ts && sed -i.bak -e 's/x/y/' b.ts", ["src/a.ts", "b.ts"]],
    ["sed -i s/old/new/g README.md", ["README.md"]],
    ["sed -n '1,20p' src/a.ts", []],
    ["perl -pi -e 's/a/b/' lib/x.pm", ["lib/x.pm"]],
    ["mv src/old.ts src/new.ts && git mv a.md docs/a.md", ["src/new.ts", "docs/a.md"]],
    ["git mv plugins/x/plugin.json .claude-plugin/plugin.json 2>&1", [".claude-plugin/plugin.json"]],
    ["cp config.example.json config.json; cp -r templates out", ["config.json"]],
    ["rm -f build.log && rm -rf dist node_modules && git rm --cached .env", []],
    ["ren src\\lib\\firebase.ts firebase.ts.deprecated", ["src/lib/firebase.ts.deprecated"]],
    ["del iam.tf secrets.tf && dir > nul", []],
    // A download and a converter write the file their output option names; a compiler's -o is a build artefact.
    ["cd assets && curl -sL https://example.dev/wP.svg -o pieces/wP.svg", ["assets/pieces/wP.svg"]],
    ['pandoc book.md -o "book.docx" --toc && pandoc book.md --output=book.html', ["book.docx", "book.html"]],
    ["wget -O vendor/lib.zip https://example.dev/lib.zip; curl -s https://example.dev -o /dev/null; gcc a.c -o bin/a", ["vendor/lib.zip"]],
    // A file copied or moved into a folder lands there under its own name.
    ["touch src/__init__.py; cp a.txt docs/", ["src/__init__.py", "docs/a.txt"]],
    ["cd src && mv changelog.ts clipboard.ts utils/", ["src/utils/changelog.ts", "src/utils/clipboard.ts"]],
    ["cp src/spec.md openspec/specs && mv *.md docs/ && mv data_batch test.meta cache/", ["openspec/specs/spec.md", "cache/test.meta"]],
    ["rm *.log $TMP/x", []],
    ['git log | tail -n +2 > "$TMPDIR/msg.txt" 2>/dev/null; head -2 notes', []],
    ["perl -pi -e 's/a/b/g' $(rg -l 'a' src) && rg -n x src", []],
    ["mv skills/meta/skill-creator skills/meta/pi-skill-creator && mv build/Makefile Makefile", ["Makefile"]],
    ["cd packages/app/src\nsed -i '' 's|a|b|g' main.ts && cd .. && echo x > notes.md", ["packages/app/src/main.ts", "packages/app/notes.md"]],
    ["cd /repo/src && touch a.ts", ["/repo/src/a.ts"]],
    ["$s = @'\nopen(p, 'w').write(f\"{x}\") > {body}\n'@; python -c $s", []],
    // Formatters and fixers in their writing mode rewrite the files named (LABELS.md: a program the agent ran wrote them).
    ["npx prettier --write src/a.ts README.md && prettier --check src/b.ts", ["src/a.ts", "README.md"]],
    ["pnpm exec oxfmt package.json .oxlintrc.json && pnpm exec oxfmt --check src", ["package.json", ".oxlintrc.json"]],
    ["eslint --fix src/a.ts; eslint src/b.ts", ["src/a.ts"]],
    ["uv run ruff format app/main.py && ruff check --fix app/x.py && ruff format --check app/y.py", ["app/main.py", "app/x.py"]],
    ["gofmt -w cmd/main.go && gofmt -l .", ["cmd/main.go"]],
    ["./node_modules/.bin/biome format --write worker/index.ts && biome check worker/index.ts", ["worker/index.ts"]],
    ["black . && prettier --write src", []],
    // PowerShell's cmdlets that write: their path, a new file (not a folder), a copy's or move's destination, a new name.
    ["(Get-Content -Raw a/b.py).Replace('x','y') | Set-Content a/b.py", ["a/b.py"]],
    ["powershell.exe -NoProfile -Command Set-Content -Path notes.md -Value 'x'", ["notes.md"]],
    ["New-Item -ItemType Directory -Force -Path src/x | Out-Null", []],
    ["New-Item -ItemType File -Path src/x/__init__.py", ["src/x/__init__.py"]],
    ["Copy-Item a.txt -Destination docs/b.txt; Move-Item old.md new.md", ["docs/b.txt", "new.md"]],
    ["Rename-Item -Path docs/a.md -NewName b.md", ["docs/b.md"]],
    ["Get-Content a.txt | Out-File -FilePath out/c.txt -Encoding utf8; Add-Content log.txt 'line'", ["out/c.txt", "log.txt"]],
    ["Copy-Item -Recurse src dist; Set-Content -Path (Join-Path $_ '__init__.py') -Value ''", []],
    // git restore and git checkout rewrite the working tree's files they name; the index alone, a branch or the whole tree names none.
    ["git restore --source HEAD -- app.js index.html && git restore -s main src/a.ts", ["app.js", "index.html", "src/a.ts"]],
    ["git restore --staged src/a.ts && git restore .", []],
    ["git restore --staged --worktree src/b.ts", ["src/b.ts"]],
    ["git checkout -- README.md && git checkout main -- docs/a.md", ["README.md", "docs/a.md"]],
    ["git checkout -b feature/x && git checkout main && git checkout -- .", []],
    // A loop over a plain list writes what its body writes, once per word; a list made by a command or a glob is not read.
    ['for d in configs/data \\\n   pipelines/ingest; do\n  touch "$d/.gitkeep"\ndone', ["configs/data/.gitkeep", "pipelines/ingest/.gitkeep"]],
    ["for f in a.ts b.ts; do sed -i 's/x/y/' src/${f}; done && echo ok > log.txt", ["src/a.ts", "src/b.ts", "log.txt"]],
    ["for f in $(ls); do touch $f.bak; done; for g in *.md; do cp $g $g.orig; done", []],
    ["echo 'for x in a; do touch $x; done'", []],
    // A file named in quotes whole is that file; a quoted sed script, an exclusion or a variable is not.
    ["mkdir -p 'app/[slug]' && cat <<'EOF' > 'app/[slug]/page.tsx'\nexport default 1;\nEOF", ["app/[slug]/page.tsx"]],
    [`cp "config.example.json" "config.json" && sed -i -e 's/a/b/g' "src/a.ts"`, ["config.json", "src/a.ts"]],
    [`echo 'x > "y.txt"' && prettier --write "!pnpm-lock.yaml"`, []],
    // A backslash at a line's end goes on with the next line.
    ["mv app/Kizzy.kt app/Axe.kt && \\\nmv domain/KizzyRepository.kt domain/AxeRepository.kt", ["app/Axe.kt", "domain/AxeRepository.kt"]],
  ])("%s", (command, expected) => {
    expect(shellWrittenPaths(command)).toEqual(expected);
  });
});

describe("shellFolderCopies", () => {
  it.each([
    // DEST is the folder's new name; with a trailing slash, the folder it goes into.
    ["mkdir -p a/archive && mv /w/a/change /w/a/archive/2026-change && echo Done", [{ from: "/w/a/change", to: "/w/a/archive/2026-change" }]],
    ["cd web && cp -R assets public/", [{ from: "web/assets", to: "web/public/assets" }]],
    ["cp -r templates out", [{ from: "templates", to: "out" }]],
    ["move C:\\w\\specs\\change C:\\w\\archive\\", [{ from: "C:\\w\\specs\\change", to: "C:\\w\\archive/change" }]],
    // A file's copy, a copy that is not recursive, a glob or a variable: no folder carried whole.
    ["cp templates out; mv a.ts b/; mv $SRC dist; mv src/* lib", []],
  ])("%s", (command, expected) => {
    expect(shellFolderCopies(command)).toEqual(expected);
  });
});

describe("Codex code mode", () => {
  const program = [
    "const results = await Promise.all([",
    '  tools.exec_command({"cmd":"pnpm build","workdir":"/w","yield_time_ms":30000}),',
    '  tools.exec_command({"cmd":"echo \\"}\\" > out.txt"}),',
    "]);",
    'const patch = "*** Begin Patch\\n*** Update File: src/a.ts\\n@@\\n-x\\n+y\\n*** End Patch";',
  ].join("\n");

  it("reads the commands a program runs, braces inside strings included", () => {
    expect(codeModeCommands(program)).toEqual(["pnpm build", 'echo "}" > out.txt']);
  });

  it('reads a command whose keys the model left bare, as JavaScript allows ({cmd:"…"})', () => {
    expect(
      codeModeCommands('const r = await tools.exec_command({cmd:"vp run worker:dev", "workdir":"/w", yield_time_ms:1000, note: "a, b: c"}); text(JSON.stringify(r));'),
    ).toEqual(["vp run worker:dev"]);
  });

  it("reads the patch a string literal holds", () => {
    expect(codeModePatches(program)).toEqual(["*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch"]);
  });

  it("tells which cell a running script's later wait finishes", () => {
    expect(runningCell("Script running with cell ID 41\nWall time 10.0 seconds\nOutput:\n")).toBe("41");
    expect(runningCell("Script completed\nOutput:\n")).toBeUndefined();
  });
});

/** The definition syntaxOnly keeps, a character at a time: quoted text blanked (a backslash in double quotes takes the next character). */
function blankedByHand(text: string): string {
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') {
        i++;
        out += i < text.length ? "  " : " ";
        continue;
      }
      if (c === quote) quote = undefined;
      out += " ";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    out += quote ? " " : c;
  }
  return out;
}

describe("syntaxOnly", () => {
  it("blanks quoted text as reading it a character at a time does, on any mix of quotes, backslashes and new lines", () => {
    const piece = fc.constantFrom("'", '"', "\\", "\n", " ", "a", ">", "x.txt", "$(", "`", "@", "<<");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join("");
        // Without heredocs or here-strings, only the blanking is left to compare.
        fc.pre(!/<<-?\s*['"]?\w+/.test(text) && !/@['"]\r?\n/.test(text));
        expect(syntaxOnly(text)).toBe(blankedByHand(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the length, so offsets into the command still hold", () => {
    expect(syntaxOnly(`echo "a > b" > out.txt`)).toBe("echo         > out.txt");
    expect(syntaxOnly("echo 'open")).toBe("echo      ");
    expect(syntaxOnly('echo "ends in \\')).toBe("echo           ");
  });
});
