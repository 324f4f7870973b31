/** Hands a Blob the worker made to the browser as a download. */
export function download(file: { blob: Blob; name: string } | null): void {
  if (!file) return;
  const url = URL.createObjectURL(file.blob);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = file.name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
