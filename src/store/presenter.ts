/** Presenter mode: large type, the panes and the headline figures. */
import { set } from "./state.ts";

export function setPresenting(presenting: boolean): void {
  set({ presenting, showHelp: false });
}
