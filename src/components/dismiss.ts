/**
 * Closing a floating thing the way people expect: a press anywhere outside it
 * (and, for a popover, Esc). The press is heard in the capture phase, so a
 * click that lands on something else both closes this and does its own work.
 */
import { useEffect, type RefObject } from "react";

export interface DismissOptions {
  open: boolean;
  /** The floating element: presses inside it keep it open. */
  ref: RefObject<HTMLElement | null>;
  onDismiss: () => void;
  /** Elements that toggle it themselves (its opener): a press on them is theirs. */
  ignoreSelector?: string;
  /** Esc closes it before anything under it (the app's own Esc order does not see that key). */
  escape?: boolean;
}

export function useDismiss({ open, ref, onDismiss, ignoreSelector, escape = false }: DismissOptions): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Element | null;
      if (!target || ref.current?.contains(target)) return;
      if (ignoreSelector && target.closest(ignoreSelector)) return;
      onDismiss();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      onDismiss();
    };
    document.addEventListener("pointerdown", onPointer, true);
    if (escape) window.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("pointerdown", onPointer, true);
      if (escape) window.removeEventListener("keydown", onKey, true);
    };
  }, [open, ref, onDismiss, ignoreSelector, escape]);
}
