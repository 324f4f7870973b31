/**
 * Whether an element's text overflows its box, read for all rows mounted in a
 * frame at once (one layout per frame, not one per row: rows mount by the dozen
 * while scrolling).
 */
import { useLayoutEffect, useState, type RefObject } from "react";

type Check = () => void;
let queue: Check[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  const checks = queue;
  queue = [];
  for (const check of checks) check();
}

export function useOverflow(ref: RefObject<HTMLElement | null>, axis: "x" | "y", content: unknown): boolean {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    let live = true;
    queue.push(() => {
      const element = ref.current;
      if (!live || !element) return;
      const next = axis === "x" ? element.scrollWidth > element.clientWidth + 1 : element.scrollHeight > element.clientHeight + 1;
      setOverflows(next);
    });
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(flush);
    }
    return () => {
      live = false;
    };
  }, [ref, axis, content]);
  return overflows;
}
