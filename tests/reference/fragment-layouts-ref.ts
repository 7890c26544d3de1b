/**
 * The fragment layouts as the PTX ISA writes them, section by section, one formula per table
 * (no code from src/catalog/matrix-fragments.ts, whose one set of formulas covers them all):
 * `row` and `col` of element a_i / b_i / c_i held by %laneid, with groupID = %laneid >> 2 and
 * threadID_in_group = %laneid % 4. The m8n8k4 .f16 layout (four products) is not here: it is
 * checked on an H200 by hw/mma.
 *
 * wgmma (9.7.15.5.1.1, register fragments): warp w of the warpgroup holds rows 16w … 16w + 15 of
 * A (in registers) and D, each in the layout written here for its m16 fragments.
 */

export interface RowCol {
  readonly row: number;
  readonly col: number;
}

type Layout = (lane: number, i: number) => RowCol;

const groupID = (lane: number) => lane >> 2;
const threadID = (lane: number) => lane % 4;

/** 9.7.14.5.2: m8n8k4 .f64. */
export const M8N8K4_F64: Record<'a' | 'b' | 'c', Layout> = {
  a: (lane) => ({ row: lane >> 2, col: lane % 4 }),
  b: (lane) => ({ row: lane % 4, col: lane >> 2 }),
  c: (lane, i) => ({ row: groupID(lane), col: threadID(lane) * 2 + (i & 0x1) }),
};

/** The m16n8 accumulators of 9.7.14.5.6–10 (C or D, .f16, .f32, .f64): c0 … c3. */
const C_M16N8: Layout = (lane, i) => ({
  row: i < 2 ? groupID(lane) : groupID(lane) + 8,
  col: threadID(lane) * 2 + (i & 0x1),
});

/** 9.7.14.5.6: m16n8k4, .tf32 and .f64 alike. */
export const M16N8K4: Record<'a' | 'b' | 'c', Layout> = {
  a: (lane, i) => ({ row: i === 0 ? groupID(lane) : groupID(lane) + 8, col: threadID(lane) }),
  b: (lane) => ({ row: threadID(lane), col: groupID(lane) }),
  c: C_M16N8,
};

/** 9.7.14.5.7: m16n8k8. */
export const M16N8K8 = {
  a16: ((lane, i) => ({
    row: i < 2 ? groupID(lane) : groupID(lane) + 8,
    col: threadID(lane) * 2 + (i & 0x1),
  })) as Layout,
  /** .tf32 and .f64. */
  a32: ((lane, i) => ({
    row: i === 0 || i === 2 ? groupID(lane) : groupID(lane) + 8,
    col: i < 2 ? threadID(lane) : threadID(lane) + 4,
  })) as Layout,
  b16: ((lane, i) => ({ row: threadID(lane) * 2 + i, col: groupID(lane) })) as Layout,
  b32: ((lane, i) => ({
    row: i === 0 ? threadID(lane) : threadID(lane) + 4,
    col: groupID(lane),
  })) as Layout,
  c: C_M16N8,
};

/** 9.7.14.5.8: m16n8k16 (floating point); 9.7.14.5.9's 8-bit layout for FP8 at k16. */
export const M16N8K16 = {
  a16: ((lane, i) => ({
    row: (i >= 0 && i < 2) || (i >= 4 && i < 6) ? groupID(lane) : groupID(lane) + 8,
    col: threadID(lane) * 2 + (i & 0x1) + (i >= 4 ? 8 : 0),
  })) as Layout,
  // "col = (i * 2) + threadID_in_group for ai where i % 2 = 0, (i * 2) - 2 + threadID_in_group
  // otherwise": read with i the element's index, that puts a1 at column t, a2 at 4 + t, … as the
  // figure shows (two elements per 4 columns).
  a64: ((lane, i) => ({
    row: i % 2 === 0 ? groupID(lane) : groupID(lane) + 8,
    col: i % 2 === 0 ? i * 2 + threadID(lane) : i * 2 - 2 + threadID(lane),
  })) as Layout,
  a8: ((lane, i) => ({
    row: i < 4 ? groupID(lane) : groupID(lane) + 8,
    col: threadID(lane) * 4 + (i & 0x3),
  })) as Layout,
  b16: ((lane, i) => ({
    row: threadID(lane) * 2 + (i & 0x1) + (i >= 2 ? 8 : 0),
    col: groupID(lane),
  })) as Layout,
  b64: ((lane, i) => ({ row: threadID(lane) + i * 4, col: groupID(lane) })) as Layout,
  b8: ((lane, i) => ({ row: threadID(lane) * 4 + i, col: groupID(lane) })) as Layout,
  c: C_M16N8,
};

/** 9.7.14.5.10: m16n8k32 with 8-bit containers (.e4m3 … .e2m1). */
export const M16N8K32 = {
  a8: ((lane, i) => ({
    row: (i >= 0 && i < 4) || (i >= 8 && i < 12) ? groupID(lane) : groupID(lane) + 8,
    col: threadID(lane) * 4 + (i & 0x3) + (i >= 8 ? 16 : 0),
  })) as Layout,
  b8: ((lane, i) => ({
    row: threadID(lane) * 4 + (i & 0x3) + (i >= 4 ? 16 : 0),
    col: groupID(lane),
  })) as Layout,
  c: C_M16N8,
};

/**
 * wgmma's D: d_i of thread `thread` of the warpgroup, for N/2 elements per thread: each group of
 * four is one m16n8 accumulator fragment, the groups 8 columns apart.
 */
export function wgmmaD(thread: number, i: number): RowCol {
  const warp = thread >> 5;
  const inner = C_M16N8(thread % 32, i % 4);
  return { row: 16 * warp + inner.row, col: 8 * Math.floor(i / 4) + inner.col };
}

/** wgmma's A in registers: the m16 fragment of A of the same k and type, rows 16w on. */
export function wgmmaA(thread: number, i: number, layout: Layout): RowCol {
  const inner = layout(thread % 32, i);
  return { row: 16 * (thread >> 5) + inner.row, col: inner.col };
}
