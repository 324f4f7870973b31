/**
 * The current view as a PNG, with no library and no network: the element is
 * cloned into an SVG foreignObject with the page's own CSS, drawn on a canvas
 * and encoded. Scrolled lists keep their scroll position in the picture.
 */
export async function captureElement(element: HTMLElement): Promise<Blob> {
  const { width, height } = element.getBoundingClientRect();
  const clone = element.cloneNode(true) as HTMLElement;
  const originals = [element, ...element.querySelectorAll<HTMLElement>("*")];
  const copies = [clone, ...clone.querySelectorAll<HTMLElement>("*")];
  originals.forEach((original, i) => {
    const copy = copies[i];
    if (!copy) return;
    // A scrolled box shows its content from the top in a clone: shift the content instead.
    if (original.scrollTop > 0 || original.scrollLeft > 0) {
      copy.style.overflow = "hidden";
      for (const child of Array.from(copy.children) as HTMLElement[]) child.style.transform = `translate(${-original.scrollLeft}px, ${-original.scrollTop}px)`;
    }
    if (original instanceof HTMLInputElement) copy.setAttribute("value", original.value);
  });
  const css = Array.from(document.styleSheets)
    .flatMap((sheet) => {
      try {
        return Array.from(sheet.cssRules).map((rule) => rule.cssText);
      } catch {
        return [];
      }
    })
    .join("\n")
    .replace(/:root/g, ".capture-root");
  const body = getComputedStyle(document.body);
  const markup = new XMLSerializer().serializeToString(clone);
  // The SVG is XML: text and attribute values must be escaped as such.
  const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const rootStyle = xml(`width:${Math.ceil(width)}px;height:${Math.ceil(height)}px;overflow:hidden;background:${body.backgroundColor};color:${body.color};font:${body.font}`);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${Math.ceil(height)}">` +
    `<foreignObject width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml" class="capture-root" style="${rootStyle}">` +
    `<style>${xml(css)}</style>${markup}</div></foreignObject></svg>`;
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const scale = window.devicePixelRatio || 1;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("this browser cannot draw on a canvas");
  context.scale(scale, scale);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the picture could not be encoded"))), "image/png"));
}
