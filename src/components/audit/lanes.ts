/**
 * Where each compaction's chip goes on the timeline: the first lane in which
 * it overlaps no other chip, given the chip's own width (estimated from its
 * label at the chart's measured width). Chips near the right end open to the
 * left of their mark, so a chip spans [at, at + width] or [at - width, at].
 */

export interface ChipSpan {
  /** The mark's position, in percent of the chart's width. */
  at: number;
  /** The chip's width, in percent of the chart's width. */
  width: number;
  toLeft: boolean;
}

/** Space kept between two chips of a lane, in percent. */
export const LANE_GAP = 0.6;

/** A chip's width in pixels from its label: the timeline's 12 px font, its padding, border and offset from the mark. */
export function chipWidthPx(label: string): number {
  return label.length * 7.2 + 12 + 2 + 3;
}

/** The lane of each chip, in order: lanes fill from the top; a chip takes the first that has room for it. */
export function assignLanes(chips: readonly ChipSpan[], gap = LANE_GAP): number[] {
  const lanes: [number, number][][] = [];
  return chips.map((chip) => {
    const span: [number, number] = chip.toLeft ? [chip.at - chip.width, chip.at] : [chip.at, chip.at + chip.width];
    let lane = lanes.findIndex((taken) => taken.every(([from, to]) => span[1] + gap <= from || span[0] >= to + gap));
    if (lane < 0) {
      lane = lanes.length;
      lanes.push([]);
    }
    lanes[lane]!.push(span);
    return lane;
  });
}
