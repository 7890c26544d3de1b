/**
 * The GPU program of one tensor-core output element: a warp runs the mma form once, each lane's
 * fragment registers loaded per the ISA's layout (catalog/matrix-fragments.ts, verified on an
 * H200 by hw/mma), on matrices that hold the playground's row of A in A's row 0, its column of B
 * in B's column 0 and its element of C at C[0][0] (every other element +0), and the lane that
 * holds D[0][0] writes it out. reproduce-cuda.ts gives the program its header and host code.
 */
import type { Form } from '../catalog/instruction.ts';
import { fragmentCoordinate, slotBits, type FragmentOperand } from '../catalog/matrix-fragments.ts';
import { matrixElements } from '../engine/matrix-registers.ts';
import type { Registers } from '../engine/pipeline.ts';

const LAYOUT_INPUTS = new Set(['f16', 'bf16', 'tf32', 'e4m3', 'e5m2']);

/** Why the program of this form cannot be written, or null: the layouts cover mma's f16 to FP8. */
export function matrixProgramProblem(form: Form): string | null {
  const m = form.matrix!;
  if (m.instruction === 'mma' && m.kind === null && LAYOUT_INPUTS.has(m.types.a)) return null;
  const what =
    m.instruction === 'wgmma'
      ? 'wgmma reads A and B from shared-memory descriptors'
      : m.kind !== null
        ? `.kind::${m.kind}'s fragment layout`
        : `the .${m.types.a} fragment layout`;
  return `the GPU program of ${form.text} is not available: ${what} is not among the layouts the program loads fragments by (mma with .f16, .bf16, .tf32, .e4m3 or .e5m2 inputs)`;
}

/** Where D[0][0] is: the lane, its register and the element's shift in it. */
export interface ElementSpot {
  readonly lane: number;
  readonly register: number;
  readonly shift: number;
  readonly bits: number;
}

const LANES = 32;

/** Each lane's registers of one operand, with the element's bits where the lane holds it. */
function fragments(
  form: Form,
  operand: FragmentOperand,
  count: number,
  elementAt: (row: number, col: number) => bigint,
): bigint[][] {
  const bits = slotBits(form, operand);
  const per = 32 / bits;
  return Array.from({ length: LANES }, (_, lane) =>
    Array.from({ length: count }, (_, r) => {
      let register = 0n;
      for (let j = 0; j < per; j++) {
        const at = fragmentCoordinate(form, operand, lane, r * per + j);
        if (at.product === 0) register |= elementAt(at.row, at.col) << BigInt(j * bits);
      }
      return register;
    }),
  );
}

/** The lane and the register slot that hold D[0][0] of product 0. */
export function elementSpot(form: Form): ElementSpot {
  const d = form.matrix!.fragments.d;
  const bits = slotBits(form, 'd');
  const per = 32 / bits;
  for (let lane = 0; lane < LANES; lane++)
    for (let i = 0; i < d.count * per; i++) {
      const at = fragmentCoordinate(form, 'd', lane, i);
      if (at.product === 0 && at.row === 0 && at.col === 0)
        return { lane, register: Math.floor(i / per), shift: (i % per) * bits, bits };
    }
  throw new Error(`no lane holds D[0][0] of ${form.text}`);
}

const hex32 = (v: bigint) => `0x${v.toString(16).padStart(8, '0')}u`;

function table(name: string, rows: bigint[][]): string[] {
  return [
    `__constant__ unsigned int ${name}[32][${rows[0]!.length}] = {`,
    ...rows.map((r, lane) => `  {${r.map(hex32).join(', ')}},  // lane ${lane}`),
    '};',
  ];
}

/** The kernel: the fragments as constant tables, the inline PTX, the one element written out. */
export function matrixKernel(form: Form, registers: Registers): string[] {
  const m = form.matrix!;
  const { a, d } = m.fragments;
  const b = m.fragments.b!;
  const c = m.fragments.c!;
  const elements = matrixElements(form, registers);
  const fa = fragments(form, 'a', a.count, (row, col) => (row === 0 ? elements.a[col]! : 0n));
  const fb = fragments(form, 'b', b.count, (row, col) => (col === 0 ? elements.b[row]! : 0n));
  const fc = fragments(form, 'c', c.count, (row, col) =>
    row === 0 && col === 0 ? elements.c : 0n,
  );
  let next = 0;
  const list = (count: number) =>
    `{${Array.from({ length: count }, () => `%${next++}`).join(', ')}}`;
  const operands = [list(d.count), list(a.count), list(b.count), list(c.count)].join(', ');
  const outs = Array.from({ length: d.count }, (_, i) =>
    d.type === 'f32' ? `"=f"(f${i})` : `"=r"(d[${i}])`,
  );
  const ins = [
    ...Array.from({ length: a.count }, (_, i) => `"r"(A[lane][${i}])`),
    ...Array.from({ length: b.count }, (_, i) => `"r"(B[lane][${i}])`),
    ...Array.from({ length: c.count }, (_, i) =>
      c.type === 'f32' ? `"f"(__uint_as_float(C[lane][${i}]))` : `"r"(C[lane][${i}])`,
    ),
  ];
  const spot = elementSpot(form);
  const mask = spot.bits === 32 ? '0xffffffffu' : `0x${((1 << spot.bits) - 1).toString(16)}u`;
  return [
    `// Each lane's fragment registers (PTX ISA ${m.instruction} fragment layouts): A's row 0 is the`,
    "// playground's row, B's column 0 its column, C[0][0] its c; every other element is +0.",
    ...table('A', fa),
    ...table('B', fb),
    ...table('C', fc),
    '',
    '// One warp runs the instruction; the lane holding D[0][0] writes that element.',
    '__global__ void reproduce(unsigned int *out) {',
    '  const unsigned int lane = threadIdx.x;',
    `  unsigned int d[${d.count}];`,
    ...(d.type === 'f32'
      ? [`  float ${Array.from({ length: d.count }, (_, i) => `f${i}`).join(', ')};`]
      : []),
    `  asm volatile("${form.text} ${operands};"`,
    `               : ${outs.join(', ')}`,
    `               : ${ins.join(', ')});`,
    ...(d.type === 'f32'
      ? Array.from({ length: d.count }, (_, i) => `  d[${i}] = __float_as_uint(f${i});`)
      : []),
    `  if (lane == ${spot.lane}) out[0] = (d[${spot.register}] >> ${spot.shift}) & ${mask};`,
    '}',
    '',
  ];
}
