/** Types for heap.mjs (plain JavaScript, beside the launcher). */
export declare const BYTES_PER_INPUT_BYTE: number;
export declare function inputBytes(args: readonly string[]): number;
export declare function bytesPerInputByte(args: readonly string[]): number;
export declare function heapForInputs(facts: { inputBytes: number; heapLimitBytes: number; memoryBytes: number; userChoseHeap: boolean; perInputByte?: number }): number | null;
export declare function runWithHeap(bundle: string, args: readonly string[], heapMb: number): Promise<number>;
export declare function currentHeapFacts(args: readonly string[]): {
  inputBytes: number;
  heapLimitBytes: number;
  memoryBytes: number;
  userChoseHeap: boolean;
  perInputByte: number;
};
