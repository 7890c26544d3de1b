import {
  baselineTarget,
  comparePtx,
  findForm,
  findTarget,
  isKnownPtxVersion,
  targetProvides,
  type Form,
  type Operand,
  type Target,
} from '../catalog/index.ts';
import {
  DEFAULT_ENGINE_OPTIONS,
  FORMATS,
  operandProblem,
  shortestDecimal,
} from '../engine/index.ts';

/**
 * "Reproduce on a GPU": a self-contained CUDA C++ program that runs one instruction form, as
 * inline PTX, on the playground's operand bits and prints the result register next to the
 * playground's answer. Pure: state in, program text out.
 */

export interface ReproduceRequest {
  /** Canonical form text, e.g. `fma.rn.relu.bf16x2`. */
  readonly form: string;
  /** Register bits (unsigned) of the sources the form has. */
  readonly a: number;
  readonly b?: number;
  readonly c?: number;
  /** The playground's target and PTX ISA version. */
  readonly target: string;
  readonly ptx: string;
  /** The playground's result bits for these registers. */
  readonly expected?: number;
}

export interface ReproduceProgram {
  readonly ok: true;
  /** The whole `repro.cu`. */
  readonly source: string;
  /** `nvcc -arch=sm_XX repro.cu -o repro && ./repro` */
  readonly compileCommand: string;
  /** The `-arch` the program is built for, e.g. `sm_90`. */
  readonly arch: string;
  /** Sentences for the page: why this arch, what the GPU run cannot show. */
  readonly notes: readonly string[];
}

export type ReproduceResult = ReproduceProgram | { readonly ok: false; readonly error: string };

/** The oldest architecture CUDA 13's nvcc compiles for (`nvcc --list-gpu-arch`). */
export const CUDA_MIN_SM = 75;
/** The PTX ISA version nvcc of CUDA 13.0 writes into the code it compiles. */
const NVCC_PTX = '9.0';
/** PTX ISA 9.0 renamed sm_101 to sm_110; CUDA 13's nvcc accepts only the new name. */
const RENAMED_ARCH: Readonly<Record<number, number>> = { 101: 110 };

type Source = 'a' | 'b' | 'c';

/** Lower-case hex of a register, zero-padded to its width, as share URLs write it. */
function formatBits(bits: number, width: 16 | 32): string {
  return `0x${(bits >>> 0).toString(16).padStart(width / 4, '0')}`;
}

export function reproduceProgram(request: ReproduceRequest): ReproduceResult {
  const form = findForm(request.form.trim());
  if (!form) return { ok: false, error: `unknown instruction form '${request.form}'` };
  const target = findTarget(request.target);
  if (!target) return { ok: false, error: `unknown target '${request.target}'` };
  if (!isKnownPtxVersion(request.ptx))
    return { ok: false, error: `unknown PTX ISA version '${request.ptx}'` };
  const input = { a: request.a, b: request.b, c: request.c };
  const problem = operandProblem(form, input);
  if (problem) return { ok: false, error: problem };
  const d = form.operands[0]!;
  if (
    request.expected !== undefined &&
    (!Number.isInteger(request.expected) || request.expected < 0 || request.expected >= 2 ** d.bits)
  ) {
    return {
      ok: false,
      error: `expected result must be a ${d.bits}-bit pattern; got ${request.expected}`,
    };
  }

  const build = buildArch(form, target);
  const compileCommand = `nvcc -arch=${build.arch} repro.cu -o repro && ./repro`;
  const notes = [
    build.why,
    ptxNote(form, request.ptx),
    ...(form.modifiers.includes('oob') ? [OOB_FORM_NOTE] : []),
  ];
  const registers = form.operands
    .slice(1)
    .map((o) => ({ operand: o, bits: request[o.name as Source]! }));
  const source = [
    ...header(form, request, build, compileCommand, notes, registers),
    ...kernel(form),
    ...hostMain(form, registers, request.expected),
  ].join('\n');
  return { ok: true, source, compileCommand, arch: build.arch, notes };
}

interface Build {
  readonly arch: string;
  /** The least arch that runs this form, when it differs from `arch` (a portable build). */
  readonly portableArch: string | null;
  readonly why: string;
  readonly runsOn: string;
}

/**
 * The user's target when it has every feature the form needs; otherwise the form's least
 * target. Never below sm_75, the oldest architecture CUDA 13 compiles for.
 */
function buildArch(form: Form, chosen: Target): Build {
  const provides = form.requirements.every((r) => targetProvides(chosen, baselineTarget(r.sm)));
  const least = Math.max(baselineTarget(minSm(form)).number, CUDA_MIN_SM);
  let why: string;
  let number = chosen.number;
  let variant = chosen.variant;
  if (!provides) {
    number = least;
    variant = '';
    why = `Built for sm_${least}, the least target with ${form.text}: the playground's target ${chosen.name} lacks it.`;
  } else if (chosen.number < CUDA_MIN_SM) {
    number = CUDA_MIN_SM;
    variant = '';
    why = `Built for sm_${CUDA_MIN_SM}: ${chosen.name} has ${form.text}, but CUDA 13 compiles for sm_${CUDA_MIN_SM} and newer only.`;
  } else {
    why = `Built for the playground's target ${chosen.name}.`;
  }
  const renamed = RENAMED_ARCH[number];
  if (renamed !== undefined) {
    why += ` sm_${number}${variant} is called sm_${renamed}${variant} since PTX ISA 9.0, the only name CUDA 13's nvcc accepts.`;
    number = renamed;
  }
  const arch = `sm_${number}${variant}`;
  const runsOn =
    variant === 'a'
      ? `only on ${arch.slice(0, -1)} GPUs (an architecture-specific target)`
      : variant === 'f'
        ? `on GPUs of the ${arch.slice(0, -1)} family from ${arch.slice(0, -1)} up (a family target)`
        : `on GPUs of ${arch} or newer (the driver compiles the embedded PTX for newer ones)`;
  const portable = `sm_${least}`;
  return { arch, portableArch: portable === arch ? null : portable, why, runsOn };
}

function minSm(form: Form): number {
  return Math.max(...form.requirements.map((r) => r.sm));
}

function ptxNote(form: Form, ptx: string): string {
  const below = comparePtx(ptx, form.minPtx) < 0;
  return (
    `nvcc writes the PTX ISA version of its toolkit (CUDA 13.0: ${NVCC_PTX}); inline PTX cannot choose it, so the playground's PTX ISA ${ptx} only decides validity` +
    (below ? ` (${form.text} needs PTX ISA ${form.minPtx} or later).` : '.')
  );
}

const OOB_FORM_NOTE = `.oob tests a and b for the OOB-NaN pattern ${formatBits(DEFAULT_ENGINE_OPTIONS.oobNanBits, 16)} (either sign), as an H100 does: a lane holding it gives +0.0. The program passes the registers' bits as they are, so an OOB-NaN lane reaches the GPU as that pattern.`;

/** Wraps prose into `//` comment lines of at most 100 columns. */
function commentLines(text: string, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${indent}// ${line} ${word}`.length > 100) {
      lines.push(`${indent}// ${line}`);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(`${indent}// ${line}`);
  return lines;
}

interface Register {
  readonly operand: Operand;
  readonly bits: number;
}

/** `0x3c00 = 1` or `0x3c004000 = lane 0: 2, lane 1: 1` for a comment. */
function describeRegister(op: Operand, bits: number): string {
  const fmt = FORMATS[op.format];
  const hex = formatBits(bits, op.bits);
  if (op.lanes === 1) return `${hex} = ${shortestDecimal(bits, fmt)}`;
  const lane = (i: number) => shortestDecimal((bits >>> (16 * i)) & 0xffff, fmt);
  return `${hex} = lane 0: ${lane(0)}, lane 1: ${lane(1)}`;
}

function typeLabel(op: Operand): string {
  return op.lanes === 2 ? `.${op.format}x2` : `.${op.format}`;
}

function header(
  form: Form,
  request: ReproduceRequest,
  build: Build,
  compileCommand: string,
  notes: readonly string[],
  registers: readonly Register[],
): string[] {
  return [
    `// Reproduce ${form.text} on a GPU. Generated by PTX Float Playground.`,
    '//',
    `//   ${compileCommand}`,
    '//',
    ...commentLines(
      request.expected === undefined
        ? `Runs the instruction once, in one GPU thread, on the operand bits below and prints the result register. Exit status: 0 ran, 1 CUDA error.`
        : `Runs the instruction once, in one GPU thread, on the operand bits below and prints the result register next to the playground's answer. Exit status: 0 MATCH, 1 CUDA error, 2 MISMATCH.`,
    ),
    '//',
    `// Playground state: target ${request.target}, PTX ISA ${request.ptx}.`,
    ...notes.flatMap((n) => commentLines(n)),
    ...commentLines(`The program runs ${build.runsOn}.`),
    ...(build.portableArch
      ? [`// For any GPU that has ${form.text}, build with -arch=${build.portableArch} instead.`]
      : []),
    '//',
    '// Registers (x2: lane 0 = bits 0-15, lane 1 = bits 16-31):',
    ...registers.map(
      ({ operand, bits }) =>
        `//   ${operand.name} ${typeLabel(operand)} ${describeRegister(operand, bits)}`,
    ),
    ...(request.expected !== undefined
      ? [
          `//   expected d ${typeLabel(form.operands[0]!)} ${describeRegister(form.operands[0]!, request.expected)}`,
        ]
      : []),
    '',
    '#include <cstdio>',
    '#include <cuda_runtime.h>',
    '',
  ];
}

function cType(op: Operand): string {
  return op.bits === 16 ? 'unsigned short' : 'unsigned int';
}

function constraint(op: Operand): string {
  return op.bits === 16 ? 'h' : 'r';
}

function kernel(form: Form): string[] {
  const [d, ...sources] = form.operands as [Operand, ...Operand[]];
  const placeholders = form.operands.map((_, i) => `%${i}`).join(', ');
  const inputs = sources.map((o) => `"${constraint(o)}"(${o.name})`).join(', ');
  return [
    '// The operands come from device memory, so neither nvcc nor ptxas can evaluate the',
    '// instruction at compile time: the GPU computes it.',
    '__global__ void reproduce(const unsigned int *in, unsigned int *out) {',
    ...sources.map((o, i) =>
      o.bits === 16
        ? `  const unsigned short ${o.name} = (unsigned short)in[${i}];`
        : `  const unsigned int ${o.name} = in[${i}];`,
    ),
    `  ${cType(d)} d;`,
    `  asm volatile("${form.text} ${placeholders};" : "=${constraint(d)}"(d) : ${inputs});`,
    '  out[0] = d;',
    '}',
    '',
  ];
}

function printfHex(op: Operand): string {
  return op.bits === 16 ? '0x%04x' : '0x%08x';
}

function hostMain(
  form: Form,
  registers: readonly Register[],
  expected: number | undefined,
): string[] {
  const d = form.operands[0]!;
  const count = registers.length;
  const hex = (bits: number, width: 16 | 32) => `${formatBits(bits, width)}u`;
  const operandsText = form.operands.map((o) => o.name).join(', ');
  const label = (name: string) => `${name}`.padEnd(8);
  return [
    '// Stops with the CUDA error (a missing driver or GPU, a GPU too old for the build).',
    '#define CHECK(call)                                                              \\',
    '  do {                                                                           \\',
    '    const cudaError_t err_ = (call);                                             \\',
    '    if (err_ != cudaSuccess) {                                                   \\',
    '      std::printf("CUDA error: %s (%s) in %s\\n", cudaGetErrorString(err_),       \\',
    '                  cudaGetErrorName(err_), #call);                                \\',
    '      return 1;                                                                  \\',
    '    }                                                                            \\',
    '  } while (0)',
    '',
    'int main() {',
    `  const unsigned int in[${count}] = {${registers.map((r) => hex(r.bits, r.operand.bits)).join(', ')}};`,
    ...(expected !== undefined
      ? [`  const unsigned int expected = ${hex(expected, d.bits)};  // PTX Float Playground`]
      : []),
    '',
    '  int device = 0;',
    '  cudaDeviceProp prop;',
    '  CHECK(cudaGetDevice(&device));',
    '  CHECK(cudaGetDeviceProperties(&prop, device));',
    '  std::printf("GPU: %s (sm_%d%d)\\n", prop.name, prop.major, prop.minor);',
    '',
    '  unsigned int *dIn = nullptr, *dOut = nullptr;',
    '  CHECK(cudaMalloc(&dIn, sizeof in));',
    '  CHECK(cudaMalloc(&dOut, sizeof(unsigned int)));',
    '  CHECK(cudaMemcpy(dIn, in, sizeof in, cudaMemcpyHostToDevice));',
    '  reproduce<<<1, 1>>>(dIn, dOut);',
    '  CHECK(cudaGetLastError());  // the launch itself, e.g. no kernel image for this GPU',
    '  CHECK(cudaDeviceSynchronize());',
    '  unsigned int d = 0;',
    '  CHECK(cudaMemcpy(&d, dOut, sizeof d, cudaMemcpyDeviceToHost));',
    '  CHECK(cudaFree(dIn));',
    '  CHECK(cudaFree(dOut));',
    '',
    `  std::printf("instruction: ${form.text} ${operandsText};\\n");`,
    ...registers.map(
      (r, i) => `  std::printf("${label(r.operand.name)} = ${printfHex(r.operand)}\\n", in[${i}]);`,
    ),
    `  std::printf("${label('d (GPU)')} = ${printfHex(d)}\\n", d);`,
    ...(expected === undefined
      ? [
          '  std::printf("expected: none given; compare d with the playground by hand\\n");',
          '  return 0;',
        ]
      : [
          `  std::printf("${label('expected')} = ${printfHex(d)} (PTX Float Playground)\\n", expected);`,
          '  const bool match = d == expected;',
          '  std::printf("%s\\n", match ? "MATCH" : "MISMATCH");',
          '  return match ? 0 : 2;',
        ]),
    '}',
    '',
  ];
}
