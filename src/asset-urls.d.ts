/** Vite's `?url` imports: the built URL of a file shipped with the app (the WebAssembly of the local reader). */
declare module "*?url" {
  const url: string;
  export default url;
}
