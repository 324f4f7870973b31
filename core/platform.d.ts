/**
 * The few platform APIs core/ may use, declared by hand so that the core
 * type-check (tsconfig.core.json) has no DOM or Node library: anything else
 * is a compile error. All of these exist in Node 20 and in a Web Worker.
 */
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
interface SubtleCryptoLike {
  digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer>;
}
declare var crypto: { subtle: SubtleCryptoLike };
declare function setTimeout(callback: (...args: unknown[]) => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare var performance: { now(): number };
declare class AbortController {
  readonly signal: unknown;
  abort(): void;
}
interface FetchResponseLike {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}
declare function fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: unknown }): Promise<FetchResponseLike>;
