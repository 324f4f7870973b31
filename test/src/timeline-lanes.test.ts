/** The timeline's chips: no two in a lane overlap, whatever their widths and positions (property), and lanes are reused. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignLanes, chipWidthPx, LANE_GAP, type ChipSpan } from "../../src/components/audit/lanes.ts";

const span = (c: ChipSpan): [number, number] => (c.toLeft ? [c.at - c.width, c.at] : [c.at, c.at + c.width]);

describe("timeline lanes", () => {
  it("never puts two overlapping chips in one lane", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.double({ min: 0, max: 100, noNaN: true }), width: fc.double({ min: 1, max: 40, noNaN: true }), toLeft: fc.boolean() }), { maxLength: 40 }),
        (chips) => {
          const lanes = assignLanes(chips);
          for (let i = 0; i < chips.length; i++)
            for (let j = i + 1; j < chips.length; j++) {
              if (lanes[i] !== lanes[j]) continue;
              const [a, b] = [span(chips[i]!), span(chips[j]!)];
              expect(a[1] + LANE_GAP <= b[0] || b[1] + LANE_GAP <= a[0]).toBe(true);
            }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("chips far apart share the first lane; a wide label at a narrow chart width takes another", () => {
    expect(
      assignLanes([
        { at: 5, width: 8, toLeft: false },
        { at: 40, width: 8, toLeft: false },
        { at: 90, width: 8, toLeft: true },
      ]),
    ).toEqual([0, 0, 0]);
    const label = "#12 3/5 182k→14k";
    const at1024 = (chipWidthPx(label) / 560) * 100;
    expect(
      assignLanes([
        { at: 10, width: at1024, toLeft: false },
        { at: 20, width: at1024, toLeft: false },
      ]),
    ).toEqual([0, 1]);
  });
});
