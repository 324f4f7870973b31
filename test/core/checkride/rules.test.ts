/**
 * Rules: labelled sentences (composed here) that are and are not standing
 * instructions, and the two length thresholds pinned at their boundaries.
 */
import { describe, expect, it } from "vitest";
import { isRuleSentence, MAX_RULE_CHARS, MIN_RULE_WORDS, ruleConfidence, ruleFindings, ruleKey, rulesIn, sentencesOf } from "../../../core/checkride/rules.ts";
import { extractFacts } from "../../../core/checkride/facts.ts";
import type { Message } from "../../../core/model.ts";

const RULES = [
  "Never push to main.",
  "You must NEVER accept malformed input silently.",
  "no console logs!",
  "Always run the tests before you commit.",
  "Only use the public API.",
  "I would only want e2e tests for the session class, nothing else.",
  "Don't read the whole file.",
  "Please don't rename exported functions.",
  "The render method must respect the 80-column width.",
  "Prefer small commits.",
  "Avoid new dependencies.",
  "Make sure every command runs in the terminal.",
  "All commands should run directly in the terminal instead of through node.",
  "The rest needs to be moved to folders we keep later.",
  "let's not jump to conclusions just yet",
  "no, don't set it, let's see if it keeps happening",
  "內容不用解答",
  "回覆必須使用繁體中文",
];
const NOT_RULES = [
  "wait, do we only have a single link color?",
  "now the question is: what do we do with auto commits, always?",
  "can we make it so we keep the old code around for reference",
  "it also always seems to be this same hash",
  "The build is always red.",
  "There is no error in the log",
  "It does not work anymore",
  "use this for now",
  "and only then it worked",
  "今日は雨です。",
  "No problems, all good.",
  "When do we ship this",
  "I've only recently started seeing this happen",
  "i don't understand the second option",
  "that should have been a one-off operation",
  "this should work now",
  "investigate whether this issue is stale and should be closed.",
  "propose where each of these files should go.",
  "newline and only displays the first line.",
  "run it",
  "skip 5, 7, 8 and do the rest",
  "then we need to tackle this bash issue",
  "you need to read the session file first",
];

describe("rule sentences", () => {
  it.each(RULES)("rule: %s", (sentence) => expect(isRuleSentence(sentence)).toBe(true));
  it.each(NOT_RULES)("not a rule: %s", (sentence) => expect(isRuleSentence(sentence)).toBe(false));

  it("typographic apostrophes read as plain ones", () => {
    expect(isRuleSentence("Please don’t touch the lexer.")).toBe(true);
  });

  it(`a sentence needs ${MIN_RULE_WORDS} words (a terse "no X!" ban apart)`, () => {
    const words = (n: number) => ["Never", ...Array.from({ length: n - 1 }, () => "push")].join(" ");
    expect(isRuleSentence(words(MIN_RULE_WORDS))).toBe(true);
    expect(isRuleSentence(words(MIN_RULE_WORDS - 1))).toBe(false);
  });

  it(`a sentence over ${MAX_RULE_CHARS} characters is a paste, not a rule`, () => {
    const sentence = (length: number) => `Never push to ${"a".repeat(length - 15)}.`;
    expect(sentence(MAX_RULE_CHARS)).toHaveLength(MAX_RULE_CHARS);
    expect(isRuleSentence(sentence(MAX_RULE_CHARS))).toBe(true);
    expect(isRuleSentence(sentence(MAX_RULE_CHARS + 1))).toBe(false);
  });

  it("keeps whole sentences with their offsets; list markers and e.g. do not split or leak", () => {
    const span = { start: 10, end: 10 + 60, text: "Fix it. - Never push to main, e.g. on Fridays. Thanks" };
    const sentences = sentencesOf(span);
    expect(sentences.map((s) => s.text)).toEqual(["Fix it.", "Never push to main, e.g. on Fridays.", "Thanks"]);
    for (const s of sentences) expect(span.text.slice(s.start - 10, s.end - 10)).toBe(s.text);
    expect(rulesIn("Fix it. Never push to main; always open a PR. Thanks.")).toEqual(["Never push to main; always open a PR."]);
  });
});

/** Each non-empty line of a text as a prose span, offsets into the text (as core/human-text.ts gives them). */
function proseOf(text: string) {
  const spans: { start: number; end: number; text: string }[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    if (line.trim()) spans.push({ start: at, end: at + line.length, text: line });
    at += line.length + 1;
  }
  return spans;
}

describe("how sure a rule is (graded, or a candidate with why)", () => {
  const GRADED = [
    "Never push to main.",
    "You must NEVER accept malformed input silently.",
    "no console logs!",
    "Never add new dependencies.",
    "Don't ever read the whole file.",
    "do NOT break UI",
    "Use ADD COLUMN IF NOT EXISTS only.",
    "We do not push to main.",
    // A property of the product (LABELS.md's "a page must not be wider than the viewport").
    "The parser must never throw on bad input.",
    "A page must not be wider than the viewport.",
    'Both must have "dev" in their names.',
    "Always ensure the request is logged.",
    "Firebase Auth Domain / API Key: N/A - Never use or configure these.",
    "From now on, answer in English.",
  ];
  const CANDIDATES: [string, RegExp][] = [
    ["I don't want any padding on the cards", /what the user wants/],
    ["let's keep the old parser as is at each step", /scope/],
    ["make sure the helper is also exported", /adds to the task/],
    ["All commands should run directly in the terminal instead of through node.", /'should'/],
    ["內容不用解答", /Chinese, Japanese or Korean/],
    ["테스트는 반드시 통과해야 합니다", /Chinese, Japanese or Korean/],
    // Japanese "only" (のみ) and a rule the human names as one (ルール).
    ["PRの概要を更新するのはPushした時のみにして", /Chinese, Japanese or Korean/],
    ["登録した情報は削除しないという開発ルールがある", /Chinese, Japanese or Korean/],
    // LABELS.md's must / never / keep / always / don't / no X / only, and "from now on", in each language's own forms.
    ["以后都用中文回答", /which language/],
    ["请始终保持原有的目录结构", /Chinese, Japanese or Korean/],
    ["これからはコミットする前にテストを実行すること。", /Chinese, Japanese or Korean/],
    ["그 파일은 건드리지 마", /Chinese, Japanese or Korean/],
    ["테스트 코드는 유지해 주세요", /Chinese, Japanese or Korean/],
    ["Lösche die Tests bitte nicht einfach so.", /Russian, Spanish/],
    ["Die API darf nicht geändert werden.", /Russian, Spanish/],
    ["A partir de agora responda sempre em português.", /which language/],
    ["Không được sửa file cấu hình này.", /Vietnamese/],
    ["商品应当是实体的可实际获得的", /Chinese, Japanese or Korean/],
    ["각 기능들은 진행상황을 알수 있게 콘솔로그를 출력해야한다", /Chinese, Japanese or Korean/],
    ["6개가 되지 않으면 발행할 수 없다", /Chinese, Japanese or Korean/],
    // -어야 한다 after a contracted stem (지+어 → 져, 우+어 → 워), not only after 아/어/여/해.
    ["로그인 화면은 모바일에서도 보여져야한다", /Chinese, Japanese or Korean/],
    // Japanese "from here on", "without doing" (-ず), a format to keep; English reminders and limits on how the work is done.
    ["ここから先の作業はすべて英語で記録しつつ進めて", /Chinese, Japanese or Korean/],
    ["図はなるべく使わず、必要なら文章で説明してください", /Chinese, Japanese or Korean/],
    ["報告は以下のような形式にしてください。", /Chinese, Japanese or Korean/],
    ["keep in mind, the e2e suite needs the local database running", /reminder/],
    ["I told you to use the staging cluster that is already running", /reminder/],
    ["please keep our chat in english", /which language/],
    ["不是从零手写，而是用现成的组件实现", /Chinese, Japanese or Korean/],
    ["open the pull request without using the gh cli", /reminder/],
    ["use the shared Button component on all forms", /reminder/],
    ["write up brand guidelines and adhere to them everywhere", /reminder/],
    ["use subagents to handle all actions.", /reminder/],
    ["Use the vendor docs as the source of truth for the API.", /reminder/],
    ["stop trying to run powershell scripts", /reminder/],
    // A ban said as a preference, a line marked binding, an order that ends on "always".
    ["I'd rather it not spell those out", /rather not/],
    ["MANDATORY: READ ALL REFERENCED DOCS BEFORE WRITING ANY CODE", /marked MANDATORY/],
    ["Have it pull from master branch always", /ending on 'always'/],
    // "keep the …", how the product is, a requirement said to be important, Indonesian's "only".
    ["Keep the dark navy background", /keep the/],
    ["There is only one mode where you play against the computer.", /how the product is/],
    ["Any player can move off-cooldown pieces at any time", /how the product is/],
    ["it's important, i need to be able to reason about its randomness", /important/],
    ["Hanya tampil jika wallet = admin keypair", /Indonesian/],
    // A practice to keep, a change for good, an order for each such case, what the user wants of everything.
    ["respect RLS on every table", /follow, respect or enforce/],
    ["use SQLite for easy persistence", /a tool chosen for a part of the work/],
    ["and only show like top 50 transactions for any selection ordered by date.", /no word that makes it last/],
    ["Keep implementation constraints: Python, vanilla HTML/CSS/JS.", /keep the/],
    ['this skill is now called "What Happened", not wat anymore', /no longer/],
    ["incase of merge conflicts, pick the current version", /an order for a case/],
    ["If not applicable, write exactly: `None`.", /an order for a case/],
    ["I want everything to use the structure of the set custom recovery phrase.", /wants of everything/],
    ["No missing configs, TODOs, or broken imports.", /terse 'no/],
    ["Confirm that one user cannot read another user's bookmarks.", /'cannot'/],
    ["선택은 6개까지 가능하다.", /Chinese, Japanese or Korean/],
    // Japanese: a tool chosen for a part of the work, a step before each piece of it.
    ["パッケージ管理はuvを利用し、pydanticで型をチェックしてください。", /Chinese, Japanese or Korean/],
    ["機能作成前はブランチを切り、作成後はREADMEを更新してください", /Chinese, Japanese or Korean/],
    // A typo in "please" is still the order after it.
    ["Pleas do not add your signature on the commit messages", /no word that makes it last/],
    // A clause of time before the main one is no question; a connective before a comma changes nothing.
    ["When you are done, write up brand guidelines and adhere to them everywhere.", /reminder/],
    ["But at the same time, keep in mind that it should be compatible with other plugins.", /reminder/],
    ["## MANDATORY: READ ALL REFERENCED DOCS BEFORE WRITING ANY CODE", /marked MANDATORY/],
    ["설정 파일은 항목별로 나눠야 합니다", /Chinese, Japanese or Korean/],
    ["Getestet werden soll es auf einem Windows PC.", /Russian, Spanish/],
    ["Só dê a tarefa como concluída quando descobrir e corrigir.", /Russian, Spanish/],
    // "from now" after a clause, not only at the start.
    ["I talk to you in Japanese, so from now please also response me in Japanese.", /adds to the task/],
    ["在他每一次實作完一個phase時review", /Chinese, Japanese or Korean/],
    ["commitlintの規約を守るようにしてほしい", /Chinese, Japanese or Korean/],
    ["docsは一旦コミットせず、specはPRにしたい", /Chinese, Japanese or Korean/],
    ["After each device is added, update the changelog and commit changes as you go.", /each or every time/],
    // The language to answer or work in (LABELS.md: "answer in English only"), in each language's words.
    ["한글로 답변해줘.", /which language/],
    ["я тебя просил работать со мной на русском", /which language/],
    ["schreibe alles auf deutsch", /which language/],
    // "Don't" in Portuguese and Spanish: não / no and a verb in an order's form; whenever; from this moment.
    ["não inventar requisitos que não estejam documentados.", /Russian, Spanish/],
    ["Quando houver mais de uma interpretação possível, não escolha silenciosamente.", /Russian, Spanish/],
    ["A partir deste momento, considere os arquivos do diretório docs como fonte oficial.", /Russian, Spanish/],
    ["No uses librerías externas en el backend.", /Russian, Spanish/],
    ["run the linter only when the types check", /scope/],
    ["no rounded corners", /terse 'no/],
    ["Никогда не коммить в main.", /Russian, Spanish/],
    ["Não use bibliotecas pesadas.", /Russian, Spanish/],
    ["The platform is NOT a rave-only site.", /capitals/],
    ["This application must be refactored to run on the new servers.", /the task, not a rule/],
    // An order with nothing that makes it last is as often the task at hand (round 4's measure: 26 of 30 graded rules wrong).
    ["Avoid new dependencies.", /no word that makes it last/],
    ["Also, avoid new dependencies.", /no word that makes it last/],
    ["Don't read the whole file.", /no word that makes it last/],
    ["Do not reset database.", /no word that makes it last/],
    ["Make sure the tests pass.", /no word that makes it last/],
    // "any", "all", "every" say how far the task reaches as often as how long a rule lasts.
    ["Do not use any external dependencies.", /no word that makes it last/],
    ["Remove all the dark mode classes and make sure every page still builds.", /no word that makes it last/],
    ["Ensure new expanded event fields are supported:", /introduces a list/],
    ["The application cannot rely on the personal account's credentials.", /'cannot'/],
    ["Explain each command you'd like to execute before asking to execute.", /each or every time/],
    // Shapes rounds 3 to 5 of the blind sets showed missed: a choice over another, a manner, a property, German and Japanese words.
    ["use pnpm not npm", /chosen over another/],
    ["write the log to a file rather than printing it", /chosen over another/],
    ["keep changes small and focused", /manner/],
    ["Signed-out visitors shouldn't be able to open the settings page.", /property the product must keep/],
    ["die vorhandenen Farben benutzen, damit es einheitlich bleibt", /Russian, Spanish/],
    ["設定ファイルは毎回確認しないように", /Chinese, Japanese or Korean/],
    ["i dont want logs from other runs in the report", /what the user wants/],
  ];

  it.each(GRADED)("graded: %s", (sentence) => {
    expect(ruleConfidence(sentence)).toEqual({ graded: true });
  });

  it.each(CANDIDATES)("a candidate: %s", (sentence, why) => {
    const confidence = ruleConfidence(sentence);
    expect(confidence?.graded).toBe(false);
    expect(confidence && !confidence.graded ? confidence.why : "").toMatch(why);
  });

  it("a rule word only inside quotes, a purpose clause, or a need denied is no rule", () => {
    for (const sentence of [
      'A caller will see ErrNotLoggedIn instead of the clearer "Resource must be set".',
      'A caller will see ErrNotLoggedIn instead of the clearer "Resource must',
      "We need a new bucket for testing so we do not overwrite production data.",
      "Because I have these roles now, we do not need to use Cloud Build.",
      "Do you want the old parser kept?",
      "No errors found.",
      "The solo mode is on for the nur app.",
      "we use the old client, not the new one, in production",
      "I can't end up fixing this today.",
      // A German status remark with "nicht" is no order; a Korean request without a rule word is the task.
      "Das funktioniert nicht mehr so wie vorher.",
      "마크다운으로 정리해줘",
      // A report of what is, in Portuguese and Spanish.
      "Não funciona mais depois do deploy de ontem.",
      "No existe el archivo en la carpeta.",
    ])
      expect(ruleConfidence(sentence), sentence).toBeNull();
  });

  it("a prohibition heading a list is one rule with its items; a step of a task's list is a candidate", () => {
    const text = "Improve:\n- avoid layout shifts\n\nDo NOT:\n- start dev server\n- expose secrets\n\nThanks.";
    const findings = ruleFindings(proseOf(text), [], text);
    expect(findings.map((f) => [f.text, f.confidence.graded])).toEqual([
      ["avoid layout shifts", false],
      ["Do NOT:\n- start dev server\n- expose secrets", true],
    ]);
    expect(text.slice(findings[1]!.start, findings[1]!.end)).toBe(findings[1]!.text);
  });

  it("list items under the human's word that the rules below are mandatory are candidates; its key: value facts are not", () => {
    const text =
      "Use this record as the constitution. All rules, defaults, and guardrails below are MANDATORY.\n\n- PROJECT_NAME: Coda\n- Hash passwords with bcrypt (≥12).\n- Validate all inputs with Zod before DB ops.";
    const findings = ruleFindings(proseOf(text), [], text);
    expect(findings.map((f) => [f.text, f.confidence.graded])).toEqual([
      ["Hash passwords with bcrypt (≥12).", false],
      ["Validate all inputs with Zod before DB ops.", false],
    ]);
    // Without the declaration the same items are the task's, not rules.
    const plain = text.replace("All rules, defaults, and guardrails below are MANDATORY.", "");
    expect(ruleFindings(proseOf(plain), [], plain)).toEqual([]);
  });

  it("a request phrased as a question ('can you please …', 'kannst du bitte …') is weighed as the request it is, and is at most a candidate", () => {
    const polite = "a request phrased as a question ('can you please …'): may be a one-off request";
    expect(ruleConfidence("Kannst du bitte die schon vorhandenen Styles benutzen, so dass wir nichts doppelt haben?")).toEqual({ graded: false, why: polite });
    expect(ruleConfidence("Can you please never push to main?")).toEqual({ graded: false, why: polite });
    // A request with no rule in it, and a real question, stay no rule.
    expect(ruleConfidence("Can you check the logs?")).toBeNull();
    expect(ruleConfidence("Should we always retry?")).toBeNull();
  });

  it("no rule at all is null, not a candidate", () => {
    for (const sentence of NOT_RULES) expect(ruleConfidence(sentence), sentence).toBeNull();
  });

  it("a rule inside a pasted document is a candidate, in text order with the person's own", () => {
    const own = { start: 0, end: 20, text: "Never push to main." };
    const pasted = { start: 40, end: 80, text: "Every response must contain one action." };
    const findings = ruleFindings([own], [pasted]);
    expect(findings.map((f) => [f.text, f.confidence.graded])).toEqual([
      ["Never push to main.", true],
      ["Every response must contain one action.", false],
    ]);
  });

  it("a sentence that is no rule as a whole offers its rule-shaped clauses as candidates, at their own offsets", () => {
    const text = "一旦mainに戻り、commitlintの規約を守るようにしてほしい、flakeで設定できる？";
    const findings = ruleFindings([{ start: 10, end: 10 + text.length, text }]);
    expect(findings.map((f) => [f.text, f.start, f.confidence.graded])).toEqual([["commitlintの規約を守るようにしてほしい", 10 + text.indexOf("commitlint"), false]]);
    expect(findings[0]!.confidence).toMatchObject({ why: expect.stringMatching(/a clause of a longer sentence/) });
    // A question whose clauses carry no rule offers none.
    expect(ruleFindings([{ start: 0, end: 30, text: "Hmm, why does it fail, again?" }])).toEqual([]);
  });
});

describe("rules in a session", () => {
  const msg = (id: string, text: string, role: Message["role"] = "user"): Message => ({ id, role, meta: {}, blocks: [{ type: "text", text }] });

  it("come from human prose only, newest last, deduplicated (a repeated rule moves to its newest saying)", () => {
    const facts = extractFacts([
      msg("a", "Never push to main. Also, avoid new dependencies."),
      msg("b", "<user_instructions>\nAlways write docs.\n</user_instructions>"),
      msg("c", "Never push to main, ok? I mean it."),
      msg("d", "Done. You must always run the tests.", "assistant"),
      msg("e", "never push to main!"),
      msg("f", '```\n"must": "never"\n```\nPrefer small commits.'),
    ]);
    expect(facts.rules.map((r) => [r.messageId, r.text])).toEqual([["e", "never push to main!"]]);
    // Every saying is kept, oldest first, so the rule is one click from each; "Never push to main, ok?"
    // asks for agreement, and its first clause says the rule again.
    expect(facts.rules[0]!.sayings!.map((s) => s.messageId)).toEqual(["a", "c", "e"]);
    // Orders with no word that makes them last are candidates.
    expect(facts.ruleCandidates.map((r) => [r.messageId, r.text])).toEqual([
      ["a", "Also, avoid new dependencies."],
      ["f", "Prefer small commits."],
    ]);
    expect(ruleKey("Never push to main.")).toBe(ruleKey("never  push to main!"));
  });

  it("candidates are kept apart with why; a rule once said for sure stays graded when said again loosely", () => {
    const pasted = "Here is the guide.\n# Agent guide\nNever push to main.\n# Style\nKeep functions short.";
    const facts = extractFacts([msg("a", "Never push to main."), msg("b", "I don't want padding on the cards."), msg("c", pasted)]);
    expect(facts.rules.map((r) => [r.messageId, r.text])).toEqual([["c", "Never push to main."]]);
    expect(facts.ruleCandidates.map((r) => [r.messageId, r.text])).toEqual([["b", "I don't want padding on the cards."]]);
    expect(facts.ruleCandidates[0]!.why).toMatch(/what the user wants/);
    expect(facts.ruleCandidates[0]!.source).toMatchObject({ messageId: "b", span: [0, "I don't want padding on the cards.".length] });
  });

  it("every rule carries its source span in the message text", () => {
    const facts = extractFacts([msg("a", "Hi. Never push to main.")]);
    expect(facts.ruleCandidates[0]!.source).toEqual({ messageId: "a", span: [4, 23], quote: "Never push to main.", role: "user" });
  });

  it("a rule is graded when the human said it again in another message, or declared it a rule; said once, it is a candidate with why", () => {
    const once = extractFacts([msg("a", "Never push to main."), msg("b", "Fix the parser.")]);
    expect(once.rules).toEqual([]);
    expect(once.ruleCandidates.map((r) => [r.text, r.why])).toEqual([["Never push to main.", expect.stringMatching(/said once/)]]);
    const again = extractFacts([msg("a", "Never push to main."), msg("b", "Fix the parser. Never push to main!")]);
    expect(again.rules.map((r) => [r.messageId, r.text, r.sayings!.length])).toEqual([["b", "Never push to main!", 2]]);
    const declared = extractFacts([msg("a", "Fix the parser.\nRules: never push to main, and always run the tests first.")]);
    expect(declared.rules.map((r) => r.text)).toEqual(["Rules: never push to main, and always run the tests first."]);
    const list = extractFacts([msg("a", "Do NOT:\n- start the dev server\n- expose secrets")]);
    expect(list.rules.map((r) => r.text)).toEqual(["Do NOT:\n- start the dev server\n- expose secrets"]);
    // The same words twice in one message are one saying.
    expect(extractFacts([msg("a", "Never push to main. Really: never push to main.")]).rules).toEqual([]);
  });
});
