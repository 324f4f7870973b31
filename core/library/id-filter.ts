/**
 * A set of ids as Bloom filters (about 1 % false positives at capacity, no
 * false negatives), kept in a resume point (core/library/resume.ts) as
 * base64 text: a growth that may reuse an id read before is read whole, as a
 * fresh read would skip the duplicate.
 *
 * The bits are read and set in the base64 text's own bytes (4 characters per
 * 3 bytes, the filter's length a multiple of 3, so no padding), not decoded
 * into an array and encoded back: a 100 MB session's filter is about 150 KB
 * of text, and a growth of a few hundred ids then touches a few thousand
 * characters instead of converting all of it twice (which was a third of
 * reading that growth, measured).
 */
import { fnvLanes } from "../fnv.ts";

/** A filter as a resume point keeps it. */
export interface IdFilter {
  /** Base64 (RFC 4648, no padding) of the filter's bytes. */
  bits: string;
  capacity: number;
  count: number;
}

const BITS_PER_ID = 10;
const HASHES = 7;
const ALPHABET = new TextEncoder().encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
const VALUE = new Int16Array(256).fill(-1);
ALPHABET.forEach((code, value) => (VALUE[code] = value));
const encoder = new TextEncoder();
const ascii = new TextDecoder();

/** A filter being read or added to: its base64 text as bytes. */
export class OpenIdFilter {
  private changed = false;

  private constructor(
    private readonly text: Uint8Array,
    private source: string | null,
    readonly capacity: number,
    public count: number,
  ) {}

  /** An empty filter with room for `capacity` ids. */
  static empty(capacity: number): OpenIdFilter {
    const bytes = Math.ceil(Math.ceil((capacity * BITS_PER_ID) / 8) / 3) * 3;
    return new OpenIdFilter(new Uint8Array((bytes / 3) * 4).fill(ALPHABET[0]!), null, capacity, 0);
  }

  /** The filter a point kept; null when its text is not such a filter (a damaged cache: the growth is then read whole). */
  static open(kept: IdFilter): OpenIdFilter | null {
    const text = encoder.encode(kept.bits);
    if (text.length === 0 || text.length % 4 !== 0 || !Number.isInteger(kept.capacity) || !Number.isInteger(kept.count)) return null;
    for (let i = 0; i < text.length; i++) if (VALUE[text[i]!]! < 0) return null;
    return new OpenIdFilter(text, kept.bits, kept.capacity, kept.count);
  }

  get full(): boolean {
    return this.count >= this.capacity;
  }

  add(id: string): void {
    const size = this.size;
    const [a, step] = hashes(id);
    for (let i = 0; i < HASHES; i++) this.setBit((a + i * step) % size);
    this.count++;
    this.changed = true;
  }

  mayHave(id: string): boolean {
    const size = this.size;
    const [a, step] = hashes(id);
    for (let i = 0; i < HASHES; i++) if (!this.bitAt((a + i * step) % size)) return false;
    return true;
  }

  /** The filter as a point keeps it (the text it was opened from, when nothing was added). */
  kept(): IdFilter {
    if (this.changed || this.source === null) {
      this.source = ascii.decode(this.text);
      this.changed = false;
    }
    return { bits: this.source, capacity: this.capacity, count: this.count };
  }

  private get size(): number {
    return (this.text.length / 4) * 24;
  }

  /** The 24 bits of the group of 4 characters starting at `at` (the group that holds byte at / 4 * 3 and the two after it). */
  private groupAt(at: number): number {
    const t = this.text;
    return (VALUE[t[at]!]! << 18) | (VALUE[t[at + 1]!]! << 12) | (VALUE[t[at + 2]!]! << 6) | VALUE[t[at + 3]!]!;
  }

  private bitAt(bit: number): boolean {
    const byte = bit >>> 3;
    const group = (byte / 3) | 0;
    return ((this.groupAt(group * 4) >>> (16 - 8 * (byte - group * 3) + (bit & 7))) & 1) === 1;
  }

  private setBit(bit: number): void {
    const byte = bit >>> 3;
    const group = (byte / 3) | 0;
    const at = group * 4;
    const value = this.groupAt(at);
    const set = value | (1 << (16 - 8 * (byte - group * 3) + (bit & 7)));
    if (set === value) return;
    const t = this.text;
    t[at] = ALPHABET[set >>> 18]!;
    t[at + 1] = ALPHABET[(set >>> 12) & 63]!;
    t[at + 2] = ALPHABET[(set >>> 6) & 63]!;
    t[at + 3] = ALPHABET[set & 63]!;
  }
}

/** The id's two hashes for double hashing: the second odd, so its steps reach every bit. */
function hashes(id: string): [number, number] {
  const [a, b] = fnvLanes(id);
  return [a, (b | 1) >>> 0];
}

/** Room for twice `ids` (a growth past a filter's room starts one of its own beside it). */
export function idFilterFor(ids: number): OpenIdFilter {
  return OpenIdFilter.empty(Math.max(256, ids * 2));
}
