/**
 * Rules: the standing instructions a user set (imperatives and constraints),
 * read from human prose only. A rule is a whole sentence that obliges or
 * forbids; questions, reports of what happened and pasted text are not.
 *
 * The markers are grouped by how much they need around them:
 * - obligations ("must", "make sure", "avoid", "prefer", 必須 …) are rules
 *   on their own;
 * - prohibitions ("don't", "do not") are rules when they address the agent
 *   (imperative, or "you/we don't"), not when the user reports ("I don't
 *   understand");
 * - frequency and scope words ("always", "never", "only") are rules when they
 *   open the sentence or follow a directive ("I want …", "you should …"), not
 *   when they describe ("it always seems", "I've only recently …");
 * - "should" is a rule unless it looks back ("should have") or predicts
 *   ("should work");
 * - a terse "no X!" ban is a rule; a terse "no X" without the "!" (a list
 *   item "no rounded corners") is a candidate, being as often a remark;
 * - an imperative that ends on "only" ("Use ADD COLUMN IF NOT EXISTS only.")
 *   is a rule; a sentence that puts NOT, NEVER, ONLY in capitals without
 *   another marker ("X is NOT a Y") is a candidate;
 * - a prohibition or obligation heading a list ("Do NOT:" and its items) is
 *   one rule, the heading and its items together.
 */
import type { TextSpan } from "../human-text.ts";

export interface RuleSpan {
  text: string;
  start: number;
  end: number;
}

const OBLIGATION = /\b(must|mustn't|make sure|avoid|prefer|under no circumstances|at all times|no more than|at most|at least)\b|^(please\s+)?ensure\b/i;
/** "must have" that looks back ("must have been", "must have changed"): a guess about the past, not a requirement. */
const MUST_HAVE_DONE = /\bmust\s+have\s+(been|had|done|gone|seen|made|\w+ed|\w+en)\b/i;
/**
 * Obligation and prohibition words of Chinese (traditional and simplified),
 * Japanese and Korean: LABELS.md's must / never / keep / always / don't / no X / only, in each
 * language's own forms. A clause-level word in these languages says as much
 * about a one-off request ("不要写内容": "write nothing in it") as about a
 * standing rule, so a sentence they mark is a candidate, never graded alone.
 */
const CJK_OBLIGATION = new RegExp(
  [
    // Chinese: must, never, keep, always, don't, no X, only.
    "必須|必须|務必|务必|一定要|應該|应该|應當|应当|絕不|绝不|永遠不|永远不|從不|从不|千萬別|千万别|千萬不要|千万不要|保持|維持|维持|總是|总是|始終|始终|每次都|一律|永遠|永远",
    // "Not X but Y" (不是…而是): one way of doing it chosen over another.
    "不是[^，。,]{1,30}[，,]?\\s*而是",
    "不要|不用|不准|不能|不可|不得|不許|不许|請勿|请勿|别|禁止|只能|只用|仅|記住|记住|記得|记得|每次|每一次|每當|每当",
    // From now on (Chinese, Japanese, Korean): an order for what follows.
    "以後|以后|今後|今后|從現在開始|从现在开始|これから(は)?|ここから先|これ以降|앞으로",
    // Japanese.
    "しないで|しない(こと|よう)|ないで|してはいけない|てはいけない|ちゃだめ|てはだめ|必ず|常に|いつも|毎回|絶対|決して|べき|維持|そのまま(に)?(して|で|残)|保って",
    "だけ(を|で|に)|使わない|なし[、。]|ないといけない|なければ(ならない|いけない)|ないように|のみ|ルール|以外(は)?(使わ|禁止)|ること[。！]?$|守る|守って|ようにして(ほしい|ください)|せず[、，,]|[かがさざただなばまらわ]ず[、，,]|(形式|フォーマット|書式)(で|に)(して|書|出力|統一)",
    // A tool chosen for a part of the work ("パッケージ管理はuvを利用し"), a step before or after each piece of it ("機能作成前はブランチを切り").
    "は[^、。？?]{1,40}を(利用|使用)(し|して|する)|(作成|実装|変更|修正|開発|コミット|リリース)(前|後)は[^、。？?]{1,30}(し|して)",
    // Korean. Obligation is -아야/-어야 한다 after any stem, contracted or not (해야, 달라져야, 세워야).
    "하지\\s*마|하지\\s*않|지\\s*(마세요|마라|말고|말아|말\\s*것)|지\\s*마(?=$|[\\s.!,~요])|말\\s*것|반드시|꼭|무조건|항상|언제나|절대|결코|유지|금지|안\\s*(돼|됨|된다|됩니다)|[가-힣]야\\s*(한다|합니다|해|돼|됨|함|하며|하고)|수\\s*없(다|습니다|음)|되지\\s*않(는다|아야|도록)|만\\s*(사용|써|쓰|허용)|오직|까지\\s*(만\\s*)?(가능|허용)|(으?로)\\s*고정(된다|됩니다|해야|한다|해)",
  ].join("|"),
);
/**
 * "Don't" in Portuguese and Spanish: a clause opening on não / no and a verb in the form of an order
 * (infinitive, or the subjunctive an order takes: "não inventar requisitos", "não aplique", "no uses").
 * Not "não funciona", "no existe": those report what is.
 */
const NEGATED_ORDER = /(^|[,;:]\s*)((não|nao)\s+\p{L}{2,}(ar|er|ir|e|em)|no\s+\p{L}{2,}(ar|er|ir|es|en))(?=[\s,.;:!?]|$)/iu;

/**
 * The language to answer or work in (LABELS.md's "answer in English only"), in the words of each
 * language: "respond in Japanese", 한글로 답변해줘, 日本語で答えて, 用中文回答, работать на русском,
 * responda em português, schreibe alles auf Deutsch, responde en español, réponds en français.
 */
const ANSWER_LANGUAGE = new RegExp(
  [
    "\\b(answer|respond|reply|write|talk|speak|work|communicate|keep (our|the|this) (chat|conversation|replies|answers))\\b[^.!?]{0,40}\\bin (english|korean|japanese|chinese|german|french|spanish|portuguese|russian|italian|vietnamese)\\b",
    "(한글|한국어|영어|일본어|중국어)로\\s*(답변|대답|응답|작성|말|설명|대화)",
    "(日本語|英語|中国語|韓国語)で(答え|回答|返信|返答|書い|書く|話|説明|やり取り)",
    "(用|使用|以)(中文|英文|日文|韩文|韓文|繁體中文|简体中文|繁体中文)(回答|回复|回覆|写|寫|交流|沟通|溝通|输出|輸出)",
    // Cyrillic letters are no \\w: the word's edges are letters' edges.
    "(?<!\\p{L})на\\s+(русском|английском|украинском)(?!\\p{L})",
    "\\bem\\s+(português|inglês)\\b",
    "\\bauf\\s+(deutsch|englisch)\\b",
    "\\ben\\s+(español|inglés|français|anglais)\\b",
    "\\bin\\s+(italiano|inglese)\\b",
  ].join("|"),
  "iu",
);

/**
 * Obligation and prohibition words of other languages people write to their agents in (Russian, Ukrainian,
 * Spanish, Portuguese, French, German, Italian, Vietnamese, Indonesian and Malay), LABELS.md's must / never / keep / always /
 * don't / no X / only in each: a candidate, as the CJK words are, since the same words say
 * as much about the request at hand as about a standing rule.
 */
const OTHER_OBLIGATION =
  /(^|[\s,;:(«"])(никогда|всегда|обязательно|нельзя|запрещено|не\s+(надо|нужно|трогай|меняй|удаляй|используй|добавляй|делай|пиши|коммить|пуш\S*)|должн[аоы]?|только|ніколи|завжди|обов'язково|не\s+можна|nunca|siempre|sempre|jamais|toujours|niemals|immer|nie|mai|sempre|obligatorio|obrigatório|obligatoire|prohibido|proibido|interdit|verboten|vietato|no\s+(uses|toques|cambies|borres|modifiques|agregues)|não\s+(use|usar|mexa|altere|apague|modifique|adicione|faça|crie)|ne\s+(touche|modifie|supprime|change|utilise|jamais)|nicht\s+(ändern|löschen|anfassen|verwenden|benutzen)|keine?|(vorhandenen?|bestehenden?)\s+\S+(\s+\S+)?\s+(benutzen|verwenden|nutzen|nehmen)|non\s+(toccare|modificare|cancellare|usare)|debe(n|s)?|deve(m|s)?|doit|doivent|muss|müssen|musst|müsst|soll|sollen|sollte|solltest|solo|somente|apenas|só|seulement|uniquement|nur|(darf|dürfen|darfst)\s+nicht|bitte\s+nicht|stets|ausschließlich|beibehalten|behalten|unverändert|auf\s+keinen\s+fall|não\s+(pode|podem|deve|devem)|mantenha|manter|evite|evitar|tem\s+que|têm\s+que|sempre\s+que|toda\s+vez\s+que|quando\s+houver|a\s+partir\s+deste\s+momento|siempre\s+que|cada\s+vez\s+que|chaque\s+fois\s+que|immer\s+wenn|jedes\s+mal\s+wenn|wann\s+immer|no\s+(debe|debes|deben|puede|puedes|pueden)|mantén|mantenga|mantener|evita|tiene\s+que|hay\s+que|il\s+faut|garde[rz]?|conserve[rz]?|évite[rz]?|mantieni|mantenere|devi|dovete|сохрани|сохраняй|оставь|избегай|không\s+được|luôn(\s+luôn)?|phải|đừng|chỉ\s+(dùng|sử\s+dụng)|giữ\s+nguyên|không\s+bao\s+giờ|cấm|harus|wajib|jangan|selalu|hanya|tidak\s+boleh|dilarang|pastikan|(ändere|lösche|entferne|benutze|verwende|nutze|committe|pushe|überschreibe|berühre|fasse)\s+[^.!?]{0,60}\bnicht|ab\s+jetzt|von\s+nun\s+an|künftig|a\s+partir\s+de\s+(agora|ahora)|daqui\s+(pra|para)\s+frente|de\s+ahora\s+en\s+adelante|désormais|à\s+partir\s+de\s+maintenant|d'ora\s+in\s+poi|впредь|отныне|с\s+этого\s+момента|từ\s+(giờ|nay))(?=[\s,.;:!?»")]|$)/iu;
const PROHIBITION =
  /(^|[,;:(]\s*|\s[-–—]\s+|\b(please|pleas|plz|and|but|no|just|then|also|pls)\s+)(don't|dont|do not|never)\b|(?<!\bso\s|\bso that\s|\bin order that\s)\b(you|we)\s+(don't|do not|shouldn't|should not|must not|never)\b(?!\s+(need|have)\s+to\b)|\bi\s+(don't|dont|do not)\s+want\b|\blet's not\b/i;
/** "always/never/only" at the start of a clause, or after a directive within a few words. */
const DIRECTED_SCOPE =
  /(^|[,;:(]\s*|^(and|but|also|so)\s+)(always|never|only)\b(?!\s+(then|now|once|recently|just)\b)|\b(want|would|will|should|must|please|let's|you|we)\b(\s+\S+){0,3}\s+(always|never|only)\b/i;
/** An order for everything that follows ("From now on, answer in English."). */
const FROM_NOW_ON = /(^(from now( on)?|going forward|from here on|in the future|henceforth)|[,;:]\s*((so|and)\s+)?(from now( on)?|going forward|from here on)),?\s+\S/i;
/** "should", and "needs to" said of the work (not "we/I/you need to", which is a task or advice). */
const SHOULD = /\b(should|shall)\b|(^|\b(?!(?:we|i|you)\b)[a-z]+\s+)needs?\s+to\b/i;
/** "should" in a subordinate clause ("whether it should", "a skill that should") states no requirement. */
const SUBORDINATE_SHOULD = /\b(whether|if|that|which|who|what|how|where|when)\b[^,;.]{0,40}\b(should|needs? to)\b/i;
/** "should" that looks back or predicts, and scope words that report. */
const NOT_NORMATIVE =
  /\bshould(n't)?\s+(have|work|be (fine|ok|okay|good|enough|possible|the))\b|\b(don't|do not|doesn't|does not|no)\s+need(s)?\s+to\b|\b(seems?|seeing|seen|happen(ed|s)?|recently|used to)\b/i;
const TERSE_BAN = /^no\s+[\w .'-]{2,40}!+$/i;
/** A request phrased as a question, in the languages the obligation words cover: "Can you please …?", "Kannst du bitte …?". */
const POLITE_REQUEST =
  /^(?:(?:can|could|would|will) you(?: please)?|(?:kannst|könntest) du(?: bitte)?|(?:können|könnten) sie(?: bitte)?|(?:peux|pourrais)-tu|(?:pouvez|pourriez)-vous|(?:puedes|podrías|podrias|puede usted)|(?:você pode|voce pode|pode|podes|poderia|poderias)|(?:puoi|potresti))[\s,]+/i;
/** Questions: a question mark, or an opening interrogative. */
const QUESTION_END = /[?？]\s*[)\]"'”]*\s*$/;
// "Do not …" and "Don't …" are imperatives, not questions.
const QUESTION_START =
  /^(can|could|would|will|is|are|am|do(?!\s+not\b)|does|did|why|what|how|where|which|who|whom|whose|when|shall|should (we|i)|isn't|aren't|doesn't|didn't|won't|wouldn't|have you|has)\b/i;

/** Fewer words than this is a fragment, not an instruction (but "no X!" is handled apart). */
export const MIN_RULE_WORDS = 3;
/** A "sentence" longer than this is a paste or a spec, not a rule a reader could quote back. */
export const MAX_RULE_CHARS = 400;

export function isRuleSentence(sentence: string): boolean {
  return ruleConfidence(sentence) !== null;
}

/**
 * How sure the extractor is that a rule-shaped sentence is a standing rule
 * (shared/LABELS.md): "graded" when it is; a candidate, with why, when the
 * same words are as often a one-off request, a preference answering a design
 * question or advice; null when it is no rule at all. Candidates are shown
 * in the answer key and graded only once the user accepts them.
 */
export type RuleConfidence = { graded: true } | { graded: false; why: string };

/** Why a sentence shaped like a rule by "should" alone is a candidate; a clause of another sentence shaped so is too weak to offer. */
const SHOULD_ONLY = "'should' or 'needs to': may be advice or a one-off request";
/** The work to be done, said in the passive: "This app must be refactored …", "the docs need to be updated". */
const TASK_PASSIVE =
  /\b(must|needs? to|has to|have to|should)\s+be\s+(refactored|rewritten|updated|changed|fixed|migrated|moved|ported|converted|implemented|added|removed|replaced|renamed|redesigned|reworked|cleaned up|split|merged|deployed)\b/i;
/** Quoted words ("…", “…”, `…`): what someone else said or what a message reads, not the speaker's rule. */
const QUOTED = /"[^"\n]*"|“[^”\n]*”|`[^`\n]*`/g;
/** A terse "no X" without "!": a ban in a list of constraints, or a remark ("no errors", "no idea"). */
const TERSE_NO = /^no\s+[\w'-]+(\s+[\w'-]+){0,4}(,\s*(or\s+|and\s+)?[\w'-]+(\s+[\w'-]+){0,3}){0,4}[.]?$/i;
const NOT_A_BAN =
  /^no\s+(problem|problems|worries|idea|thanks|thank you|luck|change|changes|errors?|issues?|warnings?|output|results?|matches|difference|need|way|doubt|rush|hurry)\b/i;
/** An imperative ending on "only": "Use tabs only.", "Answer in English only." */
const IMPERATIVE_ONLY =
  /^(use|keep|write|answer|reply|respond|run|store|import|call|return|show|print|log|edit|modify|change|touch|read|commit|push|deploy|add|allow|accept|target|support|test)\b.*\bonly[.!]?$/i;
/** NOT, NEVER, ONLY, MUST, ALWAYS in capitals inside a sentence that is not all capitals: said with weight. */
const EMPHATIC = /\b(NOT|NEVER|ONLY|MUST|ALWAYS|DON'T|NO)\b/;
/** A line that heads a list of constraints: "Do NOT:", "Never:", "Must not:", "Avoid:". */
export const RULE_LIST_HEADING = /^(\w+\s+){0,3}(do not|don't|dont|never|must not|must|avoid|forbidden|not allowed)\s*:$/i;

/** "X cannot rely on Y", "the page can't use Z": a constraint said as an impossibility. */
const CANNOT = /\b(cannot|can't|can not|may not)\s+(rely|use|depend|call|access|touch|import|change|modify|exceed|be|read|write|see|view|edit|delete|reach|create)\b/i;
/** One thing chosen over another ("use bun not npm", "document them rather than failing the build"). */
const CHOSEN_OVER = /^(please\s+)?(use|prefer|pick|keep|stick (to|with)|go with|write|document|put|store|call|run)\b[^.;!?]{1,60}?(,\s*|\s+)(not|instead of|rather than)\s+\S/i;
/** "Keep it short", "keep changes surgical": a manner the work keeps. */
const KEEP_MANNER =
  /^(please\s+)?keep\s+(it|them|things|changes|the (changes?|code|diff|commits?|answers?|output)|everything|code|commits?|answers?)\s+(\w+\s+)?(short|small|simple|minimal|surgical|focused|brief|clear|direct|concise|clean|tight|readable)\b/i;
/** "Logged-out visitors shouldn't be able to reach it", "two people can't end up with the same one": a property that must hold. */
const MUST_NOT_BE_ABLE = /\b(shouldn't|should not|must not|mustn't|can't|cannot|can not)\s+(be able to|end up|ever)\b/i;
/**
 * A reminder or a limit on how the work is done: "keep in mind, …", "without using the gh cli",
 * "use the tooltip component on all of them", "adhere to them everywhere", "X as the source of truth",
 * "stop trying to run Y".
 */
const REMINDER =
  /^(please\s+)?(keep|bear) in mind\b|\bi (told|asked) you (to|not to)\b|\bwithout (using|touching|changing|modifying|calling|adding|breaking)\b|^(please\s+)?use\b[^.;!?]{1,80}\b((on|for|in|across|to \w+) (all|every|each)|everywhere)\b|\b(everywhere|exclusively)\b|\bsource of truth\b|^(please\s+)?stop\s+(trying to\s+)?\w+ing\b/i;
/** An imperative that applies to each or every time ("Explain each command before running it."). */
const STANDING_IMPERATIVE =
  /^(please\s+)?(explain|ask|check|run|test|commit|document|write|add|use|keep|name|prefix|format|follow|include|wait|remember|confirm|show|tell|update|log)\b.*\b(each|every|whenever|before (you|any|each|every)|after (each|every|any))\b|^(after|before) (each|every)\b[^,]{1,80},\s*(please\s+)?(explain|ask|check|run|test|commit|document|write|add|use|keep|update|log|review|push|build)\b|^(please\s+)?(?!(i|we|you|they|he|she|it|this|that|these|those|the|a|an|my|our|your|there|here|now|then|so|and|but|if|when|which|what)\b)[a-z]+\b[^.;!?]*\b(after|before) (each|every)\b/i;

/** "Respect RLS", "follow common git patterns", "enforce uniqueness in the database": a practice to keep. */
const FOLLOW_PRACTICE = /^(please\s+)?(respect|follow|adhere to|comply with|enforce|obey|honou?r|conform to|stick to)\s+\S/i;
/** "It is now called X, not Y anymore", "we no longer use Z": what has changed for good. */
const NO_LONGER =
  /\bnow\b[^.;!?]{0,60}\bnot\b[^.;!?]{0,40}\b(anymore|any more)\b|\b(we|you|it|they)\s+(no longer|don't|do not)\s+(use|need|call|support|want|name)\b[^.;!?]{0,60}\b(anymore|any more)\b|\bno longer\s+(use|call|support|need|name|allow)/i;
/** "In case of merge conflicts, pick the current version", "If not applicable, write exactly: None": an order for each such case. */
const CONDITIONAL_ORDER =
  /^(in ?case (of|that)|in the event (of|that)|if)\b[^,]{1,60},\s*(please\s+)?(always\s+)?(write|use|say|answer|reply|respond|return|put|leave|mark|pick|choose|keep|take|prefer|ask|stop|skip|fall back|default)\b/i;
/** "I want everything to use the structure of …": what the user wants of all the work. */
const WANT_OF_ALL = /^i\s+(want|need|would like)\s+(everything|all\s+\w+|every\s+\w+|each\s+\w+)\s+to\b/i;

/** "Use SQLite for persistence", "use an open model like llama for summaries": a tool chosen for a part of the work. */
const TOOL_FOR_PART = /^(please\s+)?use\s+(?!(it|this|that|them|these|those)\b)[^,.;!?]{1,40}\s+for\s+(?!(now|this|that|it|the moment)\b)\S/i;

/** "But at the same time, …", "And also, …": a connective and a comma before the clause. */
const LEADING_CONNECTIVE = /^(but|and|also|so|then|however|plus|oh|ok|okay|though)\b[^,.;!?]{0,24},\s*/i;
/** "I'd rather it not spell those out": a ban said as a preference. */
const RATHER_NOT = /\b(i'd|i would|we'd|we would) rather (\w+ )?not\b/i;
/** A line the human marked as binding: "MANDATORY: read all referenced docs before writing any code". */
const MARKED_BINDING = /^(#{1,6}\s*|\*\*)?(mandatory|required|critical|important)\s*:\s*\S/i;
/** An order that ends on "always" ("Have it pull from master branch always."), not a description ("it is always slow"). */
const TRAILING_ALWAYS =
  /^(please\s+)?(?!(i|we|you|they|he|she|it|its|it's|this|that|these|those|the|a|an|my|our|your|there|here|now|then|so|and|but|if|when|which|what|is|are|was|were)\b)[a-z]+\b[^.;!?]{3,80}\balways[.!]?$/i;

/** "Keep the dark navy background": what the work must keep (LABELS.md's "keep"), or a step of the task. */
const KEEP_THING = /^(please\s+)?keep\s+((the|all|every|existing|our|my|its|their|this|these|those)\b|(\w+\s+){0,2}(constraints?|conventions?|rules?|requirements?)\s*:)/i;
/** "There is only one mode", "There is also no concept of check": how the product is, an invariant or a description. */
const THERE_IS_ONLY_OR_NO =
  /^there\s+(is|are|should be|will be|must be)\s+(also\s+)?(only|no)\s+(?!(problem|problems|issue|issues|error|errors|need|way|change|changes|difference|output|match|matches|results?|luck|doubt|rush)\b)\S/i;
/** "Any player can move off-cooldown pieces at any time": a permission the product keeps. */
const CAN_AT_ANY_TIME = /\bcan\b[^.;!?]{1,80}\bat any time\b/i;
/** "It's important, I need to be able to reason about it": weight the human put on a requirement. */
const SAID_IMPORTANT = /\b(it's|it is|this is|that's|that is)\s+(very\s+|really\s+|super\s+)?important\b/i;

/** A rule the human named as one: "Rules: never …", "Constraint: …", or a list under "Do NOT:". */
export const DECLARED_RULE = new RegExp(
  `^(?:((house |ground )?rules?|constraints?|conventions?|guidelines?|invariants?)\\s*:|${RULE_LIST_HEADING.source.replace(/^\^|\$$/g, "")}\\s*\\n)`,
  "i",
);

/** The human declaring that what follows binds: "All rules, defaults, and guardrails below are MANDATORY". */
const MANDATE_DECLARATION =
  /\b(rules|guardrails|constraints|requirements|mandates|principles|conventions)\b[^.\n]{0,60}\b(are|is)\s+(mandatory|required|non-negotiable|binding)\b/i;

/** A one-off addition to the task at hand ("make sure the helper is also exported"), not a standing rule. */
const ADDS_TO_TASK = /\b(also|as well|this time|for now)\b/i;
/** A preference that may answer a design question ("I don't want any padding", "I want JSON first"). */
const PREFERENCE = /\bi\s+(don't|dont|do not)?\s*want\b|\bi'd (like|prefer)\b|\blet's\b/i;

export function ruleConfidence(sentence: string): RuleConfidence | null {
  // Typographic apostrophes ("don’t") read as plain ones.
  const text = sentence.trim().replace(/[’‘]/g, "'");
  if (IMPERATIVE_ONLY.test(text) && !isQuestion(text)) return { graded: true };
  // The rule word only inside a quotation: a review finding or an error message quoted, not a rule.
  // A quotation the sentence split leaves open ('… the clearer "Resource must') runs to its end.
  // So does one the split left closing at the start ('effort — never block" comment, but …').
  const unquoted = text
    .replace(/^[^"“”`]*["”`](?=[^"“”`]*$|[^"“”`]*["“`][^"”`]*["”`][^"“”`]*$)/, '""')
    .replace(QUOTED, '""')
    .replace(/["“`][^"”`]*$/, '""');
  if (unquoted !== text && ruleShaped(text) && !ruleShaped(unquoted)) return null;
  if (!ruleShaped(text)) {
    const asked = POLITE_REQUEST.exec(text);
    if (asked && QUESTION_END.test(text)) {
      // "Can you please keep the existing styles?": the request, not the question, is what may last.
      const request = ruleConfidence(text.slice(asked[0].length).replace(/\s*[?？][\s)\]"'”]*$/, "."));
      return request && { graded: false, why: "a request phrased as a question ('can you please …'): may be a one-off request" };
    }
    if (isQuestion(text) || text.length > MAX_RULE_CHARS) return null;
    if (TERSE_NO.test(text) && !NOT_A_BAN.test(text)) return { graded: false, why: "a terse 'no …': a ban among constraints, or a remark" };
    if (EMPHATIC.test(text) && text !== text.toUpperCase() && text.split(/\s+/).length >= MIN_RULE_WORDS)
      return { graded: false, why: "NOT, NEVER or ONLY in capitals: a constraint said with weight, or an emphatic description" };
    if (NEGATED_ORDER.test(text) && text.split(/\s+/).length >= MIN_RULE_WORDS)
      return { graded: false, why: "an obligation word of Russian, Spanish, Portuguese, French, German, Italian or Vietnamese, said as often of a one-off request" };
    if (ANSWER_LANGUAGE.test(text)) return { graded: false, why: "which language to answer or work in: a standing rule, or this answer's alone" };
    if (CJK_OBLIGATION.test(text)) return { graded: false, why: "an obligation word in Chinese, Japanese or Korean, said as often of a one-off request" };
    // English words of the same spelling ("solo", "nur"…) stay out: a sentence with English function words is English.
    const englishWords = (text.match(/\b(the|and|is|are|was|to|of|you|we|it|this|that|with|for|on|i)\b/gi) ?? []).length;
    if (OTHER_OBLIGATION.test(text) && text.split(/\s+/).length >= MIN_RULE_WORDS && englishWords < 2)
      return { graded: false, why: "an obligation word of Russian, Spanish, Portuguese, French, German, Italian, Vietnamese or Indonesian, said as often of a one-off request" };
    if (/\bonly (when|if|for|in|with)\b|\bkeep\b.+\b(as is|unchanged|intact|at)\b/i.test(text))
      return { graded: false, why: "'only' or 'keep': a scope that may be the task's, not a standing rule" };
    if (CANNOT.test(text) && !/^(i|we|you)\b/i.test(text) && !/\b(i|we)\s+(cannot|can't|can not)\b/i.test(text))
      return { graded: false, why: "'cannot': a constraint on the work, or a report of what fails" };
    if (STANDING_IMPERATIVE.test(text)) return { graded: false, why: "an instruction for each or every time: may be a standing procedure, or the task's steps" };
    // "But at the same time, keep in mind …": a connective before the comma changes nothing of what follows.
    const bare = text.replace(LEADING_CONNECTIVE, "");
    if (bare !== text && bare.split(/\s+/).length >= MIN_RULE_WORDS) {
      const inner = ruleConfidence(bare);
      if (inner) return inner.graded ? { graded: false, why: "after a connective ('but', 'also', …): a constraint, or part of the answer before it" } : inner;
    }
    if (RATHER_NOT.test(text)) return { graded: false, why: "'I'd rather not …': a ban said as a preference, for the work or for this answer" };
    if (MARKED_BINDING.test(text)) return { graded: false, why: "a line marked MANDATORY or IMPORTANT: a standing rule, or a step of the task said with weight" };
    if (FOLLOW_PRACTICE.test(text)) return { graded: false, why: "an order to follow, respect or enforce something: a standing practice, or this task's" };
    if (NO_LONGER.test(text) && !isQuestion(text)) return { graded: false, why: "'not … anymore', 'no longer': a change meant to last, or a report of one" };
    if (CONDITIONAL_ORDER.test(text)) return { graded: false, why: "an order for a case ('in case of …, pick …'): a standing rule for each such case, or this one" };
    if (WANT_OF_ALL.test(text)) return { graded: false, why: "what the user wants of everything: a standing requirement, or this task's" };
    if (KEEP_THING.test(text)) return { graded: false, why: "'keep the …': something the work must keep, or a step of the task at hand" };
    if (THERE_IS_ONLY_OR_NO.test(text) || CAN_AT_ANY_TIME.test(text))
      return { graded: false, why: "says how the product is ('there is only …', 'can … at any time'): an invariant to keep, or a description" };
    if (SAID_IMPORTANT.test(text)) return { graded: false, why: "'it's important': a requirement said with weight, or a remark" };
    if (TRAILING_ALWAYS.test(text)) return { graded: false, why: "an order ending on 'always': a standing rule, or how the task at hand should go" };
    if (REMINDER.test(text)) return { graded: false, why: "a reminder for the work ahead ('keep in mind', 'without using'): a standing constraint, or a remark" };
    if (TOOL_FOR_PART.test(text)) return { graded: false, why: "a tool chosen for a part of the work ('use X for Y'): a standing choice, or this task's" };
    if (CHOSEN_OVER.test(text)) return { graded: false, why: "one thing chosen over another ('use X, not Y'): a standing choice, or the answer to a design question" };
    if (KEEP_MANNER.test(text)) return { graded: false, why: "'keep it short', 'keep changes small': a manner for the work, or for this answer alone" };
    if (MUST_NOT_BE_ABLE.test(text) && !/^(i|we)\b/i.test(text))
      return { graded: false, why: "'shouldn't be able to', 'can't end up': a property the product must keep, or a report of what it does" };
    return null;
  }
  if (PREFERENCE.test(text)) return { graded: false, why: "says what the user wants: may answer a design question rather than set a rule" };
  // "Ensure new fields are supported:" leads into a list: its items are the task's steps.
  if (/:\s*$/.test(text) && !RULE_LIST_HEADING.test(text)) return { graded: false, why: "introduces a list: its items may be the task's steps rather than a rule" };
  if (TASK_PASSIVE.test(text) && !/\b(never|always|not)\b/i.test(text))
    return { graded: false, why: "says what must be done to the work (a passive 'must be refactored'): the task, not a rule" };
  // A leading "Also," joins the sentence to the one before; it says nothing of the task at hand.
  if (ADDS_TO_TASK.test(text.replace(/^(and\s+)?also\b,?\s*/i, "")) && !/\b(never|always|at all times|under no circumstances)\b/i.test(text))
    return { graded: false, why: "adds to the task at hand ('also', 'this time'): may be a one-off request" };
  if (!OBLIGATION.test(text) && !PROHIBITION.test(text) && !DIRECTED_SCOPE.test(text) && !TERSE_BAN.test(text) && !FROM_NOW_ON.test(text))
    return { graded: false, why: SHOULD_ONLY };
  // LABELS.md's rule is a constraint that later work must keep. An order with nothing that makes it last
  // ("Do not reset the database.", "Make sure the helper is exported.") is as often the task at hand.
  if (!STANDING.test(text) && !EMPHATIC_ORDER.test(text) && !INVARIANT.test(text) && !DECLARED_RULE.test(text))
    return { graded: false, why: "a prohibition or obligation with no word that makes it last (never, always, from now on…): may be for the task at hand" };
  return { graded: true };
}

/**
 * Words that make an order last beyond the task at hand: frequency ("never", "always", "every time",
 * "whenever"), time ("from now on", "going forward", "anymore"), "no matter", a habit ("we don't push
 * to main"), or a terse "no X!". Not "any", "all", "each" or "every" alone: they say how far the task
 * at hand reaches ("remove all the dark classes") as often as how long a rule lasts.
 */
const STANDING =
  /\b(never|always|at all times|under no circumstances|from now on|going forward|in the future|from here on|anymore|any more|ever|every time|each time|whenever|no matter)\b|^(we|you)\s+(don't|do not|never|always)\b|^no\s+[\w .'-]{2,40}!+$/i;
/** A ban or an order said with weight in capitals ("Do NOT add backend services."). */
const EMPHATIC_ORDER = /\b(NOT|NEVER|DON'T|NO|ALWAYS|ONLY)\b/;
/**
 * A property of the product or the code that must hold ("The app must not crash on bad input.", "A page
 * must not be wider than the viewport.", "Both must have dev in their names."): a subject that is not the
 * person or the agent, then must / must not / mustn't / cannot.
 */
const INVARIANT = /^(?!(i|we|you|please|just|also|and|then|so)\b)[^,;:]{2,80}?\b(must|mustn't|must not|cannot|can't|may not|shall not)\b/i;

function isQuestion(text: string): boolean {
  // "When you are done, write up the guidelines": a clause of time or place before the main one, no question.
  return QUESTION_END.test(text) || (QUESTION_START.test(text) && !SUBORDINATE_OPENER.test(text));
}
/** A sentence opening on a clause of time or place ("When X, …", "Where Y, …") with no question mark. */
const SUBORDINATE_OPENER = /^(when|whenever|where|wherever)\b[^,?]{1,80},\s*\S/i;

/** The sentence has the shape of a rule (the markers above); ruleConfidence decides how sure that is. */
function ruleShaped(text: string): boolean {
  if (TERSE_BAN.test(text)) return true;
  if (text.length > MAX_RULE_CHARS) return false;
  const words = text.split(/\s+/).filter(Boolean).length;
  const cjk = /[\u3400-\u9fff]/.test(text);
  if (!cjk && words < MIN_RULE_WORDS) return false;
  if (isQuestion(text)) return false;
  if (OBLIGATION.test(text) && !MUST_HAVE_DONE.test(text)) return true;
  if (FROM_NOW_ON.test(text)) return true;
  if (PROHIBITION.test(text)) return true;
  if (NOT_NORMATIVE.test(text)) return false;
  if (DIRECTED_SCOPE.test(text)) return true;
  return SHOULD.test(text) && !SUBORDINATE_SHOULD.test(text);
}

/** Sentences of a prose span with their offsets: split after . ! ? 。 ！ and at line ends. */
export function sentencesOf(span: TextSpan): RuleSpan[] {
  const out: RuleSpan[] = [];
  const boundary = /(?<=[.!?。！？])\s+|(?<=[。！？])/g;
  let cursor = 0;
  const push = (from: number, to: number) => {
    const piece = span.text.slice(from, to);
    const lead = piece.length - piece.trimStart().length;
    // A list marker is not part of the sentence.
    const marker = /^([-*•]|\d+[.)])\s+/.exec(piece.slice(lead))?.[0].length ?? 0;
    const text = piece.trim().slice(marker);
    if (text) out.push({ text, start: span.start + from + lead + marker, end: span.start + from + lead + marker + text.length });
  };
  for (const match of span.text.matchAll(boundary)) {
    // "e.g. x" and "i.e. y" do not end a sentence.
    if (/\b(e\.g|i\.e|etc|vs)\.$/i.test(span.text.slice(0, match.index!))) continue;
    push(cursor, match.index!);
    cursor = match.index! + match[0].length;
  }
  push(cursor, span.text.length);
  return out;
}

/** The rule sentences of some human prose, in text order (graded and candidates alike). */
export function rulesInProse(prose: readonly TextSpan[]): RuleSpan[] {
  return prose.flatMap(sentencesOf).filter((sentence) => isRuleSentence(sentence.text));
}

export interface RuleFinding extends RuleSpan {
  confidence: RuleConfidence;
}

/**
 * Every rule-shaped sentence of a message's prose with how sure each is.
 * `documentProse`: lines of a pasted document or template in the message
 * (core/human-text.ts): their rules are at most candidates, since a
 * template's imperatives are seldom the person's own.
 */
export function ruleFindings(prose: readonly TextSpan[], documentProse: readonly TextSpan[] = [], messageText?: string): RuleFinding[] {
  const out: RuleFinding[] = [];
  const { lists, rest } = ruleLists(prose, messageText);
  out.push(...lists);
  // "All rules, defaults and guardrails below are MANDATORY": the human says what the items after it are.
  const declaredFrom = rest.findIndex((line) => MANDATE_DECLARATION.test(line.text));
  for (const [index, line] of rest.entries()) {
    // A step in a list ("- avoid layout shifts" under "Improve:") is as often part of the task as a standing rule.
    const listItem = /^([-*•]|\d+[.)])\s+/.test(line.text);
    const declared = declaredFrom !== -1 && index > declaredFrom && listItem && !/^([-*•]|\d+[.)])\s+[^:]{1,40}:\s/.test(line.text);
    for (const sentence of sentencesOf(line)) {
      let confidence = ruleConfidence(sentence.text);
      if (!confidence && declared && sentence.text.split(/\s+/).length >= MIN_RULE_WORDS)
        confidence = { graded: false, why: "an item under the user's word that the rules below are mandatory: a rule, or a fact of the spec" };
      if (confidence?.graded && listItem && !PROHIBITION.test(sentence.text) && !/\b(must|never|under no circumstances|at all times)\b/i.test(sentence.text))
        confidence = { graded: false, why: "a step in a list: may be part of the task rather than a standing rule" };
      if (confidence) out.push({ ...sentence, confidence });
      else out.push(...ruleClauses(sentence));
    }
  }
  for (const sentence of documentProse.flatMap(sentencesOf)) {
    if (!ruleConfidence(sentence.text)) continue;
    out.push({ ...sentence, confidence: { graded: false, why: "inside a pasted document or prompt template: may be the template's text, not the user's rule" } });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Where a sentence divides into clauses: a comma or semicolon (also CJK's), or a dash between spaces. */
const CLAUSE_BREAK = /[,;、，；]\s*|\s+[—–]\s+/g;
const CLAUSE_WHY = "a clause of a longer sentence that is no rule as a whole (a question, a remark): may be a constraint, or only part of the remark";

/**
 * The rule-shaped clauses of a sentence that is no rule as a whole: "一旦mainに戻り、commitlintの規約を守るようにしてほしい、
 * flakeで設定できる？" asks a question, and still carries the constraint of its middle clause. Candidates only.
 */
function ruleClauses(sentence: RuleSpan): RuleFinding[] {
  const out: RuleFinding[] = [];
  let from = 0;
  const push = (to: number) => {
    const piece = sentence.text.slice(from, to);
    const text = piece.trim();
    const lead = piece.length - piece.trimStart().length;
    const cjk = /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/.test(text);
    const confidence = (cjk ? text.length >= 6 : text.split(/\s+/).length >= MIN_RULE_WORDS) && text.length < sentence.text.length ? ruleConfidence(text) : null;
    if (confidence && !(confidence.graded === false && confidence.why === SHOULD_ONLY))
      out.push({ text, start: sentence.start + from + lead, end: sentence.start + from + lead + text.length, confidence: { graded: false, why: CLAUSE_WHY } });
  };
  for (const match of sentence.text.matchAll(CLAUSE_BREAK)) {
    push(match.index);
    from = match.index + match[0].length;
  }
  if (from > 0) push(sentence.text.length);
  return out;
}

/**
 * A heading line of prohibitions or obligations ("Do NOT:") and the list items right under it: one
 * rule from the heading to its last item (its text the message's own, `messageText`), graded, since the
 * heading says what every item is. The other lines go on to be read one sentence at a time.
 */
function ruleLists(prose: readonly TextSpan[], messageText: string | undefined): { lists: RuleFinding[]; rest: TextSpan[] } {
  if (messageText === undefined) return { lists: [], rest: [...prose] };
  const lists: RuleFinding[] = [];
  const rest: TextSpan[] = [];
  for (let i = 0; i < prose.length; i++) {
    const heading = prose[i]!;
    if (!RULE_LIST_HEADING.test(heading.text)) {
      rest.push(heading);
      continue;
    }
    let last = i;
    // Items: list lines, each on the line right after the one before (no other line between them).
    while (last + 1 < prose.length && /^([-*•]|\d+[.)])\s+\S/.test(prose[last + 1]!.text) && !messageText.slice(prose[last]!.end, prose[last + 1]!.start).includes("\n\n")) last++;
    const end = prose[last]!.end;
    if (last === i || end - heading.start > MAX_RULE_CHARS) {
      rest.push(heading);
      continue;
    }
    lists.push({ text: messageText.slice(heading.start, end), start: heading.start, end, confidence: { graded: true } });
    i = last;
  }
  return { lists, rest };
}

/** For plain text (tests, memory files): one span, offsets from 0. */
export function rulesIn(text: string): string[] {
  return text
    .split("\n")
    .reduce<{ spans: TextSpan[]; at: number }>(
      (acc, line) => {
        acc.spans.push({ start: acc.at, end: acc.at + line.length, text: line });
        acc.at += line.length + 1;
        return acc;
      },
      { spans: [], at: 0 },
    )
    .spans.flatMap((span) => rulesInProse([span]).map((rule) => rule.text));
}

/** Same rule twice: equal once case, spacing and end punctuation are ignored. */
export function ruleKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.!。！]+$/, "")
    .trim();
}
