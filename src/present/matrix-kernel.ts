/**
 * The GPU kernel of one tensor-core output element (CUDA C++ with inline PTX, for a person to
 * run), on matrices that hold the playground's row of A in A's row 0, its column of B in B's
 * column 0 and its element of C at C[0][0] (every other element +0); the thread that holds
 * D[0][0] writes it out. The Reproduce tab's program (src/state/reproduce-cuda.ts) gives it its
 * header and host code; the GPU harness's wgmma capture (hw/mma/wgmma/) runs many of them.
 *
 * - mma: one warp runs the form once, each lane's fragment registers loaded per the ISA's layout
 *   (catalog/matrix-fragments.ts, verified on an H200 by hw/mma for the forms sm_90 runs), from
 *   constant tables of every lane's registers.
 * - wgmma.mma_async: a warpgroup (128 threads) runs it once, between wgmma.fence and
 *   wgmma.commit_group / wgmma.wait_group 0; B (and A, or A from registers) in shared memory,
 *   K-major without swizzling, named by matrix descriptors (catalog/matrix-shared-memory.ts);
 *   C is D's value before the instruction (scale-d = 1), imm-scale-a = imm-scale-b = 1 and no
 *   transpose (the playground's element is d = c + Σ a_i·b_i).
 *
 * Each element goes in as its register holds it: its container's bits (an .e2m1 in the central
 * 4 bits of its 8-bit container, an .e3m2 or .e2m3 in the lower 6, 9.7.14.5.14; a .tf32 as its
 * whole .b32).
 */
import type { Form, Place } from '../catalog/instruction.ts';
import {
  fragmentCoordinate,
  fragmentLayoutProblem,
  registerOperands,
  slotBits,
  type FragmentOperand,
} from '../catalog/matrix-fragments.ts';
import {
  descriptorFieldBits,
  sharedElementOffset,
  sharedMatrixLayout,
  type SharedMatrixLayout,
} from '../catalog/matrix-shared-memory.ts';
import type { Registers } from '../engine/pipeline.ts';

/** Where wgmma's A comes from: a shared-memory descriptor (the default) or registers. */
export type MatrixASource = 'descriptor' | 'registers';

/**
 * Why the program of this form cannot be written, or null. mma (with or without
 * `.kind::f8f6f4`) and wgmma.mma_async are written where the fragment layouts place every
 * element; a block-scaled kind's scale operands are not among what the program loads.
 */
export function matrixProgramProblem(form: Form): string | null {
  const m = form.matrix!;
  const kind = m.kind as string | null;
  if (m.instruction === 'mma' && kind !== null && kind !== 'f8f6f4')
    return `the GPU program of ${form.text} is not available yet: it loads A, B and C by the fragment layouts, and .kind::${kind}'s scale operands are not among them`;
  for (const operand of registerOperands(form)) {
    const problem = fragmentLayoutProblem(form, operand);
    if (problem)
      return `the GPU program of ${form.text} is not available yet: the fragment layouts of the PTX ISA do not place its elements (${problem})`;
  }
  return null;
}

/** Where D[0][0] is: the thread, its register and the element's shift in it. */
export interface ElementSpot {
  /** The lane of the warp (mma) or the thread of the warpgroup (wgmma). */
  readonly lane: number;
  readonly register: number;
  readonly shift: number;
  readonly bits: number;
}

/** Threads whose registers the program fills: a warp (m8n8k4's four products too) or 128. */
const threadsOf = (form: Form) => Math.max(32, form.matrix!.threads);

/** Bits of one register of the operand's fragment: .f64 64, every other 32. */
const registerBits = (form: Form, operand: FragmentOperand) =>
  form.matrix!.fragments[operand]!.type === 'f64' ? 64 : 32;

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

/** The containers of A's row, B's column or C's element, as the registers hold them. */
function containers(form: Form, registers: Registers, operand: 'a' | 'b' | 'c'): bigint[] {
  const places: Place[] = form.elements[0]!.inputs.filter((p) => p.operand === operand);
  const register = registers[operand] ?? 0n;
  return places.map((p) => (register >> BigInt(p.slot.lo)) & mask(p.slot.hi - p.slot.lo + 1));
}

/** The playground's matrices: row 0 of A, column 0 of B, C[0][0]; everything else +0. */
function elementAt(form: Form, registers: Registers) {
  const a = containers(form, registers, 'a');
  const b = containers(form, registers, 'b');
  const [c] = containers(form, registers, 'c');
  return (operand: FragmentOperand, row: number, col: number): bigint => {
    if (operand === 'a') return row === 0 ? a[col]! : 0n;
    if (operand === 'b') return col === 0 ? b[row]! : 0n;
    return row === 0 && col === 0 ? c! : 0n;
  };
}

/** Each thread's registers of one operand, with the elements' bits where the thread holds them. */
function fragments(
  form: Form,
  operand: FragmentOperand,
  at: (operand: FragmentOperand, row: number, col: number) => bigint,
): bigint[][] {
  const bits = slotBits(form, operand);
  const per = registerBits(form, operand) / bits;
  const count = form.matrix!.fragments[operand]!.count;
  return Array.from({ length: threadsOf(form) }, (_, thread) =>
    Array.from({ length: count }, (_, r) => {
      let register = 0n;
      for (let j = 0; j < per; j++) {
        const c = fragmentCoordinate(form, operand, thread, r * per + j);
        if (c.product === 0) register |= at(operand, c.row, c.col) << BigInt(j * bits);
      }
      return register;
    }),
  );
}

/** The thread and the register slot that hold D[0][0] of product 0. */
export function elementSpot(form: Form): ElementSpot {
  const d = form.matrix!.fragments.d;
  const bits = slotBits(form, 'd');
  const per = registerBits(form, 'd') / bits;
  for (let lane = 0; lane < threadsOf(form); lane++)
    for (let i = 0; i < d.count * per; i++) {
      const at = fragmentCoordinate(form, 'd', lane, i);
      if (at.product === 0 && at.row === 0 && at.col === 0)
        return { lane, register: Math.floor(i / per), shift: (i % per) * bits, bits };
    }
  throw new Error(`no thread holds D[0][0] of ${form.text}`);
}

const hex = (v: bigint, bits: number) =>
  `0x${v.toString(16).padStart(bits / 4, '0')}${bits === 64 ? 'ull' : 'u'}`;

const cTypeOf = (bits: number) => (bits === 64 ? 'unsigned long long' : 'unsigned int');

function table(name: string, bits: number, rows: bigint[][]): string[] {
  return [
    `__constant__ ${cTypeOf(bits)} ${name}[32][${rows[0]!.length}] = {`,
    ...rows.map((r, lane) => `  {${r.map((v) => hex(v, bits)).join(', ')}},  // lane ${lane}`),
    '};',
  ];
}

/** `%first, …` for `count` operands, in braces: the asm operand list of one fragment. */
function operandList(first: number, count: number): string {
  return `{${Array.from({ length: count }, (_, i) => `%${first + i}`).join(', ')}}`;
}

/** An inline-asm input of one register of a fragment table, by the register's type. */
function input(type: 'b32' | 'f32' | 'f64', value: string): string {
  if (type === 'f32') return `"f"(__uint_as_float(${value}))`;
  if (type === 'f64') return `"d"(__longlong_as_double(${value}))`;
  return `"r"(${value})`;
}

/** D's registers: `unsigned int d[]`, `float f[]` or `double f[]`, and how one is read as bits. */
function accumulator(form: Form) {
  const d = form.matrix!.fragments.d;
  const floating = d.type !== 'b32';
  const cType = d.type === 'f64' ? 'double' : d.type === 'f32' ? 'float' : 'unsigned int';
  const name = floating ? 'f' : 'd';
  const constraint = d.type === 'f64' ? 'd' : d.type === 'f32' ? 'f' : 'r';
  const bitsOf = (i: number) =>
    d.type === 'f64'
      ? `__double_as_longlong(f[${i}])`
      : d.type === 'f32'
        ? `__float_as_uint(f[${i}])`
        : `d[${i}]`;
  return { count: d.count, cType, name, constraint, bitsOf };
}

/** The line that writes D[0][0] out, from the thread holding it. */
function writeOut(form: Form, thread: string, bitsOf: (i: number) => string): string {
  const spot = elementSpot(form);
  const value =
    spot.bits === registerBits(form, 'd')
      ? bitsOf(spot.register)
      : `(${bitsOf(spot.register)} >> ${spot.shift}) & 0x${mask(spot.bits).toString(16)}u`;
  return `  if (${thread} == ${spot.lane}) out[0] = ${value};`;
}

/** mma: the fragments as constant tables, the inline PTX, the one element written out. */
function mmaKernel(form: Form, registers: Registers): string[] {
  const m = form.matrix!;
  const at = elementAt(form, registers);
  const operands = ['a', 'b', 'c'] as const;
  const tables = operands.flatMap((o) =>
    table(o.toUpperCase(), registerBits(form, o), fragments(form, o, at)),
  );
  const acc = accumulator(form);
  const counts = [acc.count, m.fragments.a.count, m.fragments.b!.count, m.fragments.c!.count];
  const lists: string[] = [];
  let next = 0;
  for (const count of counts) {
    lists.push(operandList(next, count));
    next += count;
  }
  const outs = Array.from(
    { length: acc.count },
    (_, i) => `"=${acc.constraint}"(${acc.name}[${i}])`,
  );
  const ins = operands.flatMap((o) =>
    Array.from({ length: m.fragments[o]!.count }, (_, i) =>
      input(m.fragments[o]!.type, `${o.toUpperCase()}[lane][${i}]`),
    ),
  );
  return [
    `// Each lane's fragment registers (PTX ISA mma fragment layouts): A's row 0 is the`,
    "// playground's row, B's column 0 its column, C[0][0] its c; every other element is +0.",
    ...tables,
    '',
    '// One warp runs the instruction; the lane holding D[0][0] writes that element.',
    `__global__ void reproduce(${outType(form)} *out) {`,
    '  const unsigned int lane = threadIdx.x;',
    `  ${acc.cType} ${acc.name}[${acc.count}];`,
    `  asm volatile("${form.text} ${lists.join(', ')};"`,
    `               : ${outs.join(', ')}`,
    `               : ${ins.join(', ')});`,
    writeOut(form, 'lane', acc.bitsOf),
    '}',
    '',
  ];
}

/** The C type of the one element written out: 64 bits for an .f64 D. */
export function outType(form: Form): string {
  return cTypeOf(slotBits(form, 'd') === 64 ? 64 : 32);
}

/** Statements that store one matrix's nonzero 32-bit words into its shared-memory array. */
function sharedStores(
  form: Form,
  operand: 'a' | 'b',
  layout: SharedMatrixLayout,
  at: (operand: FragmentOperand, row: number, col: number) => bigint,
): string[] {
  const words = new Map<number, bigint>();
  const { k } = form.matrix!.shape;
  for (let i = 0; i < k; i++) {
    const [row, col] = operand === 'a' ? [0, i] : [i, 0];
    const byte = sharedElementOffset(layout, operand, row, col);
    const shift = BigInt((byte % 4) * 8);
    const word = Math.floor(byte / 4);
    words.set(word, (words.get(word) ?? 0n) | (at(operand, row, col) << shift));
  }
  return [...words]
    .filter(([, v]) => v !== 0n)
    .map(([word, v]) => `    ${operand}_smem[${word}] = ${hex(v, 32)};`);
}

/** The descriptor of a shared-memory matrix, computed where its address is known. */
function descriptorLine(operand: 'a' | 'b', layout: SharedMatrixLayout): string {
  return `  const unsigned long long ${operand}_desc = ((unsigned long long)((smem_address(${operand}_smem) & 0x3FFFF) >> 4)) | ${hex(descriptorFieldBits(layout), 64)};`;
}

/** The asm operands after D: a descriptor or A's registers, B's descriptor, the immediates. */
function wgmmaTail(form: Form, aSource: MatrixASource, first: number): string {
  const m = form.matrix!;
  const a = aSource === 'registers' ? operandList(first, m.fragments.a.count) : `%${first}`;
  const b = `%${first + (aSource === 'registers' ? m.fragments.a.count : 1)}`;
  // scale-d = 1 (D = A·B + D), imm-scale-a = imm-scale-b = 1 (no negation); the .f16/.bf16
  // forms' imm-trans-a (A from a descriptor) and imm-trans-b = 0: A K-major, B K-major.
  const transpose = m.transpose ? (aSource === 'registers' ? [0] : [0, 0]) : [];
  return [a, b, '1', '1', '1', ...transpose].join(', ');
}

/** wgmma.mma_async: shared memory, descriptors, the warpgroup's one instruction. */
function wgmmaKernel(form: Form, registers: Registers, aSource: MatrixASource): string[] {
  const m = form.matrix!;
  const at = elementAt(form, registers);
  const acc = accumulator(form);
  const layoutA = sharedMatrixLayout(form, 'a');
  const layoutB = sharedMatrixLayout(form, 'b');
  const spot = elementSpot(form);
  const [c] = containers(form, registers, 'c');
  const cBits = (c! << BigInt(spot.shift)).toString(16);
  // A in registers: the threads that hold row 0 (warp 0, groupID 0) get their nonzero registers.
  const aRegisters =
    aSource === 'registers'
      ? fragments(form, 'a', at).flatMap((regs, thread) =>
          regs.some((r) => r !== 0n)
            ? [
                `  if (thread == ${thread}) {`,
                ...regs.flatMap((r, i) => (r === 0n ? [] : [`    a[${i}] = ${hex(r, 32)};`])),
                '  }',
              ]
            : [],
        )
      : [];
  const outs = Array.from(
    { length: acc.count },
    (_, i) => `"+${acc.constraint}"(${acc.name}[${i}])`,
  );
  const ins = [
    ...(aSource === 'registers'
      ? Array.from({ length: m.fragments.a.count }, (_, i) => `"r"(a[${i}])`)
      : ['"l"(a_desc)']),
    '"l"(b_desc)',
  ];
  const shared = (operand: 'a' | 'b', layout: SharedMatrixLayout) =>
    `  __shared__ __align__(256) unsigned int ${operand}_smem[${layout.bytes / 4}];`;
  const zero = (operand: 'a' | 'b', layout: SharedMatrixLayout) =>
    `  for (unsigned int i = thread; i < ${layout.bytes / 4}; i += 128) ${operand}_smem[i] = 0u;`;
  const initial =
    acc.name === 'f'
      ? `${acc.cType === 'double' ? '__longlong_as_double' : '__uint_as_float'}(0x${cBits}${acc.cType === 'double' ? 'ull' : 'u'})`
      : `0x${cBits}u`;
  return [
    '// The shared-state-space address of a shared-memory array, for its matrix descriptor.',
    '__device__ unsigned int smem_address(const void *p) {',
    '  return static_cast<unsigned int>(__cvta_generic_to_shared(p));',
    '}',
    '',
    `// A warpgroup runs the instruction (PTX ISA wgmma.mma_async). Shared memory holds ${aSource === 'descriptor' ? 'A (64 × K) and B' : 'B'}`,
    '// K-major without swizzling, in core matrices of 8 rows × 16 bytes (LBO = 128 bytes between',
    `// core matrices along K, SBO = ${layoutB.strideByteOffset} bytes between groups of 8 rows): A's row 0 is the`,
    "// playground's row, B's column 0 its column; D[0][0] starts as its c (scale-d = 1); every",
    '// other element is +0. The thread holding D[0][0] writes that element.',
    `__global__ void reproduce(${outType(form)} *out) {`,
    '  const unsigned int thread = threadIdx.x;',
    ...(aSource === 'descriptor' ? [shared('a', layoutA)] : []),
    shared('b', layoutB),
    ...(aSource === 'descriptor' ? [zero('a', layoutA)] : []),
    zero('b', layoutB),
    '  __syncthreads();',
    '  if (thread == 0) {',
    ...(aSource === 'descriptor' ? sharedStores(form, 'a', layoutA, at) : []),
    ...sharedStores(form, 'b', layoutB, at),
    '  }',
    '  // The generic-proxy stores made visible to wgmma, which reads through the async proxy.',
    '  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");',
    '  __syncthreads();',
    ...(aSource === 'descriptor' ? [descriptorLine('a', layoutA)] : []),
    descriptorLine('b', layoutB),
    ...(aSource === 'registers'
      ? [`  unsigned int a[${m.fragments.a.count}] = {};`, ...aRegisters]
      : []),
    `  ${acc.cType} ${acc.name}[${acc.count}] = {};`,
    `  if (thread == ${spot.lane}) ${acc.name}[${spot.register}] = ${initial};`,
    '  asm volatile(',
    '      "{\\n\\t"',
    '      "wgmma.fence.sync.aligned;\\n\\t"',
    `      "${form.text} ${operandList(0, acc.count)}, ${wgmmaTail(form, aSource, acc.count)};\\n\\t"`,
    '      "wgmma.commit_group.sync.aligned;\\n\\t"',
    '      "wgmma.wait_group.sync.aligned 0;\\n\\t"',
    '      "}"',
    `      : ${outs.join(', ')}`,
    `      : ${ins.join(', ')}`,
    '      : "memory");',
    writeOut(form, 'thread', acc.bitsOf),
    '}',
    '',
  ];
}

/** The kernel of a tensor-core form: its fragments, the instruction, the one element written out. */
export function matrixKernel(
  form: Form,
  registers: Registers,
  aSource: MatrixASource = 'descriptor',
): string[] {
  return form.matrix!.instruction === 'wgmma'
    ? wgmmaKernel(form, registers, aSource)
    : mmaKernel(form, registers);
}
