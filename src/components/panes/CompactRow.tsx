/**
 * The one-line form of a row, used while a panel is open under the panes: role, the
 * first block's text ending in "…" when it does not fit, and the short id. Clicking
 * the row shows it whole in the selected-message panel.
 */
import type { RowProjection } from "../../worker/protocol.ts";
import { ROLE_LABELS } from "../format.ts";
import { Highlighted } from "./Highlight.tsx";
import { ShortId } from "./ShortId.tsx";

function firstLine(row: RowProjection): { chip?: string; text: string } {
  const block = row.blocks[0];
  if (!block) return { text: "(no content)" };
  const more = row.blocks.length + row.hiddenBlocks > 1 ? ` (+${row.blocks.length + row.hiddenBlocks - 1} more blocks)` : "";
  switch (block.type) {
    case "text":
      return { text: block.preview.replace(/\s+/g, " ") + more };
    case "toolCall":
      return { chip: `→ ${block.name ?? "tool"}`, text: block.preview + more };
    case "thinking":
      return { chip: "thinking", text: (block.opaqueBytes !== undefined && block.chars === 0 ? "encrypted (not readable)" : block.preview) + more };
    case "omitted":
      return { chip: "moved out", text: (block.label ?? "") + more };
    case "raw":
      return { chip: "unknown block", text: block.preview + more };
    case "image":
      return { chip: "image", text: block.preview + more };
  }
}

export function CompactRowContent({ row }: { row: RowProjection }) {
  const { chip, text } = firstLine(row);
  return (
    <div className="row-header">
      <span className={`role role-badge-${row.role}`}>{ROLE_LABELS[row.role] ?? row.role}</span>
      {row.dividers?.map((divider) => (
        <span
          key={divider.index}
          className="chip chip-compaction"
          data-testid="compaction-divider"
          data-compaction-index={divider.index}
          title="The agent compacted its context here, before this message"
        >
          compaction #{divider.index}
        </span>
      ))}
      <span className="compact-preview one-line" title={text.length > 80 ? "Select the row to read it whole" : undefined}>
        {chip ? <span className="chip">{chip}</span> : null}
        <Highlighted text={text} />
      </span>
      <span className="row-id">
        {row.line !== undefined ? <span className="dim">line {row.line} · </span> : null}
        <ShortId id={row.id} what="message id" />
      </span>
    </div>
  );
}
