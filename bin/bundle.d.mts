/** Types for bundle.mjs (plain JavaScript: it runs before anything can transpile TypeScript). */
export declare const ROOT: string;
export declare function cacheDir(): string;
export declare function sourceKey(dir?: string, bundlerVersion?: string): string;
export declare function bundledCli(): Promise<string>;
export declare function trustedBundle(bundle: string, digestFile: string): boolean;
