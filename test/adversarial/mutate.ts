/**
 * Mutations of real session files for the adversarial fuzz: byte-level
 * damage (flips, bad bytes, cuts), line-level damage (duplicated, dropped,
 * swapped, joined lines) and record-level damage (a field removed, retyped,
 * pointed elsewhere, nested deeply). Deterministic for a given seed.
 */
import fc from "fast-check";

export type Mutation =
  | { kind: "flip"; at: number; byte: number }
  | { kind: "insert"; at: number; bytes: number[] }
  | { kind: "truncate"; at: number }
  | { kind: "duplicate-line"; line: number }
  | { kind: "drop-line"; line: number }
  | { kind: "swap-lines"; a: number; b: number }
  | { kind: "join-lines"; line: number }
  | { kind: "field"; line: number; pick: number; value: unknown };

const STRANGE_VALUES: unknown[] = [null, 0, -1, 1e308, "", "x".repeat(300), [], {}, true, { type: "omitted" }, [[[[[]]]]], "\u0000", "\uFFFD", "m0", "a0000003"];

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc.array(fc.constantFrom(0x00, 0xff, 0xc3, 0xe2, 0x0a, 0x22, 0x7b, 0x7d, 0x5b, 0x5c, 0x2c), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("drop-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("join-lines" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("field" as const), line: fc.nat(), pick: fc.nat(), value: fc.constantFrom(...STRANGE_VALUES, undefined) }),
);

export function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let out = bytes;
  for (const m of mutations) out = applyOne(out, m);
  return out;
}

function applyOne(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = Math.max(1, bytes.length);
  switch (m.kind) {
    case "flip": {
      const copy = bytes.slice();
      if (copy.length > 0) copy[m.at % n] = m.byte;
      return copy;
    }
    case "insert": {
      const at = m.at % (bytes.length + 1);
      return Uint8Array.from([...bytes.subarray(0, at), ...m.bytes, ...bytes.subarray(at)]);
    }
    case "truncate":
      return bytes.slice(0, m.at % n);
  }
  const lines = new TextDecoder().decode(bytes).split("\n");
  const pick = (i: number) => i % lines.length;
  switch (m.kind) {
    case "duplicate-line":
      lines.splice(pick(m.line), 0, lines[pick(m.line)]!);
      break;
    case "drop-line":
      lines.splice(pick(m.line), 1);
      break;
    case "swap-lines": {
      const [a, b] = [pick(m.a), pick(m.b)];
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      break;
    }
    case "join-lines":
      if (lines.length > 1) lines.splice(pick(m.line), 2, (lines[pick(m.line)] ?? "") + (lines[pick(m.line) + 1] ?? ""));
      break;
    case "field": {
      const i = pick(m.line);
      try {
        const record = JSON.parse(lines[i]!);
        setSomewhere(record, m.pick, m.value);
        lines[i] = JSON.stringify(record);
      } catch {
        // Not a JSON line (a pretty-printed file, or already damaged): leave it.
      }
      break;
    }
  }
  return new TextEncoder().encode(lines.join("\n"));
}

/** Replaces (or, with undefined, removes) the `pick`-th field met in a walk of `value`. */
function setSomewhere(value: unknown, pick: number, replacement: unknown): void {
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0 && slots.length < 200) {
    const current = stack.pop();
    if (Array.isArray(current)) current.forEach((inner, i) => (slots.push([current, i]), stack.push(inner)));
    else if (current && typeof current === "object") for (const [key, inner] of Object.entries(current)) (slots.push([current as Record<string, unknown>, key]), stack.push(inner));
  }
  if (slots.length === 0) return;
  const [holder, key] = slots[pick % slots.length]!;
  if (replacement === undefined && !Array.isArray(holder)) delete holder[key as string];
  else (holder as Record<string | number, unknown>)[key] = replacement ?? null;
}
