/**
 * The long-piece bound (core/token-pieces.ts): counts stay linear whatever
 * the text's shape, and equal the exact o200k count wherever no
 * pre-tokenizer piece is longer than the bound.
 */
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { MAX_PIECE_CHARS, chunksOf, countBounded, partsAtLongPieces } from "../../../core/token-pieces.ts";
import { O200K, loadTokenizer } from "../../../core/tokens.ts";

await loadTokenizer();
const PLAIN = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => countTokens(text, PLAIN);

/** Alphabets of the shapes sessions hold; a run of one is what makes a piece long. */
const ALPHABETS = {
  repeated: ["a"],
  base64: [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="],
  hex: [..."0123456789abcdef"],
  lowercase: [..."abcdefghijklmnopqrstuvwxyz"],
  cjk: [
    ..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域",
  ],
  kana: [..."あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコ"],
  emoji: ["😀", "🎉", "👍🏽", "🚀", "✅"],
  symbols: [..."=-_*#~.|/"],
  whitespace: [" ", " ", "\t", "\n", "\r\n"],
  mixed: [..."ab 12\n.,;:{}[]\"'日本😀", "  ", "é", "ß"],
} as const;

function textOver(alphabet: readonly string[], maxLength: number) {
  return fc.array(fc.constantFrom(...alphabet), { maxLength }).map((chars) => chars.join(""));
}

describe("partsAtLongPieces", () => {
  it("cuts only at the pre-tokenizer's own boundaries: counting the parts whole gives the exact count", () => {
    // A small bound makes every shape hold long pieces, so the cuts are exercised on short texts.
    for (const [name, alphabet] of Object.entries(ALPHABETS)) {
      fc.assert(
        fc.property(textOver(alphabet, 120), fc.integer({ min: 1, max: 12 }), (text, limit) => {
          const parts = partsAtLongPieces(text, limit);
          expect(parts.map((p) => p.text).join(""), name).toBe(text);
          expect(
            parts.reduce((sum, part) => sum + exact(part.text), 0),
            name,
          ).toBe(exact(text));
        }),
        { numRuns: 60 },
      );
    }
  });

  it("marks as long exactly the pieces longer than the bound", () => {
    const parts = partsAtLongPieces(`intro ${"x".repeat(300)} outro ${"=".repeat(400)}\n`, MAX_PIECE_CHARS);
    expect(parts.filter((p) => p.long).map((p) => p.text.trim().length)).toEqual([300, 400]);
  });
});

describe("countBounded", () => {
  it("equals the exact count wherever no piece is longer than the bound, for every shape", () => {
    for (const [name, alphabet] of Object.entries(ALPHABETS)) {
      fc.assert(
        fc.property(textOver(alphabet, 400), (text) => {
          const longest = Math.max(0, ...partsAtLongPieces(text, 0).map((p) => p.text.length));
          const bounded = countBounded(text, exact);
          if (longest <= MAX_PIECE_CHARS) {
            expect(bounded.tokens, name).toBe(exact(text));
            expect(bounded.charsInLongPieces).toBe(0);
          }
        }),
        { numRuns: 40 },
      );
    }
  });

  it("stays within 1% of the exact count on long pieces of every shape", () => {
    for (const [name, alphabet] of Object.entries(ALPHABETS)) {
      fc.assert(
        fc.property(textOver(alphabet, 3000), (text) => {
          const exactCount = exact(text);
          const bounded = countBounded(text, exact).tokens;
          // One extra token per chunk boundary at most, and never more than 1% of a long text.
          expect(Math.abs(bounded - exactCount), name).toBeLessThanOrEqual(Math.max(2, Math.ceil(text.length / MAX_PIECE_CHARS)));
          if (exactCount > 1000) expect(Math.abs(bounded - exactCount) / exactCount, name).toBeLessThanOrEqual(0.01);
        }),
        { numRuns: 8 },
      );
    }
  });

  it("never splits a surrogate pair", () => {
    const emoji = "😀".repeat(300);
    for (const chunk of chunksOf(emoji, 7)) expect(chunk.length % 2).toBe(0);
    expect(chunksOf(emoji).join("")).toBe(emoji);
  });
});

describe("O200K.count on text without breaks", () => {
  it("counts a 200 KB message of unbroken text in well under a second (it took 20 s)", () => {
    let seed = 7;
    const letters = Array.from({ length: 200_000 }, () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 26))).join("");
    const cjk = Array.from({ length: 70_000 }, (_, i) => ALPHABETS.cjk[(i * 7919) % ALPHABETS.cjk.length]).join("");
    for (const text of [letters, cjk, "a".repeat(200_000), "=".repeat(200_000)]) {
      const started = performance.now();
      const tokens = O200K.count(text);
      const seconds = (performance.now() - started) / 1000;
      expect(tokens).toBeGreaterThan(0);
      // Generous for a shared 2-core machine: the quadratic merge took 20 s on the letters.
      expect(seconds).toBeLessThan(2);
    }
  });
});
