import { findForm, sourceOf } from '../catalog/all-forms.ts';
import type { Form, Register, SourceName } from '../catalog/instruction.ts';
import { comparePtx, isKnownPtxVersion, NEWEST_PTX } from '../catalog/ptx-versions.ts';
import { findTarget, type Target } from '../catalog/targets.ts';
import { requirementReasons } from '../catalog/verdict.ts';
import { hexOf } from '../engine/format.ts';
import { DEFAULT_ENGINE_OPTIONS } from '../engine/options.ts';
import { registerProblem } from '../engine/pipeline.ts';
import { registerPlaces } from '../engine/register-text.ts';
import { elementReadout } from './element-view.ts';
import { bitsAt } from './registers.ts';
import {
  matrixKernel,
  matrixProgramProblem,
  type MatrixASource,
} from '../present/matrix-kernel.ts';

/**
 * "Reproduce on a GPU": a self-contained CUDA C++ program that runs one instruction form, as
 * inline PTX, on the playground's register bits and prints the result register next to the
 * playground's answer — any form of the catalog, arithmetic or cvt. Pure: state in, program
 * text out.
 */

export interface ReproduceRequest {
  /** Canonical form text, e.g. `fma.rn.relu.bf16x2`, `cvt.rn.satfinite.e4m3x2.f32`. */
  readonly form: string;
  /** The source registers' bits (unsigned); those the form does not have are left out. */
  readonly registers: Readonly<Partial<Record<SourceName, bigint>>>;
  /** The playground's target and PTX ISA version. */
  readonly target: string;
  readonly ptx: string;
  /** The playground's result bits for these registers. */
  readonly expected?: bigint;
  /** wgmma: A from a shared-memory descriptor (the default) or from registers. */
  readonly aSource?: MatrixASource;
}

export interface ReproduceProgram {
  readonly ok: true;
  /** The whole `repro.cu`. */
  readonly source: string;
  /** `nvcc -arch=sm_XX repro.cu -o repro && ./repro` */
  readonly compileCommand: string;
  /** The target the program is built for, e.g. `sm_90`, `sm_100a`. */
  readonly arch: string;
  /**
   * nvcc's flags for it: `-arch=sm_90`; for an architecture- or family-specific target
   * `-arch=compute_100a -code=sm_100a`, since `-arch=sm_100a` alone also builds the portable
   * compute_100 PTX, which has none of sm_100a's own features.
   */
  readonly archFlags: readonly string[];
  /** Sentences for the page: why this arch, what the GPU run cannot show. */
  readonly notes: readonly string[];
}

export type ReproduceResult =
  | ReproduceProgram
  | {
      readonly ok: false;
      readonly error: string;
      /** 'not-reproducible': a valid form and state whose program is not written (yet). */
      readonly code?: 'not-reproducible';
    };

/** The oldest architecture CUDA 13's nvcc compiles for (`nvcc --list-gpu-arch`). */
export const CUDA_MIN_SM = 75;
/** The PTX ISA version nvcc of CUDA 13.0 writes into the code it compiles. */
const NVCC_PTX = '9.0';
/** PTX ISA 9.0 renamed sm_101 to sm_110; CUDA 13's nvcc accepts only the new name. */
const RENAMED_ARCH: Readonly<Record<number, number>> = { 101: 110 };

/** A source register and its bits. */
interface Source {
  readonly register: Register;
  readonly bits: bigint;
}

export function reproduceProgram(request: ReproduceRequest): ReproduceResult {
  const form = findForm(request.form.trim());
  if (!form) return { ok: false, error: `unknown instruction form '${request.form}'` };
  const target = findTarget(request.target);
  if (!target) return { ok: false, error: `unknown target '${request.target}'` };
  if (!isKnownPtxVersion(request.ptx))
    return { ok: false, error: `unknown PTX ISA version '${request.ptx}'` };
  const sources: Source[] = form.registers
    .slice(1)
    .map((r) => ({ register: r, bits: request.registers[r.name as SourceName]! }));
  const problem = registerProblem(
    form,
    Object.fromEntries(sources.map((s) => [s.register.name, s.bits])),
  );
  if (problem) return { ok: false, error: problem };
  const matrixProblem = form.matrix ? matrixProgramProblem(form) : null;
  if (matrixProblem) return { ok: false, error: matrixProblem, code: 'not-reproducible' };
  const d = form.registers[0]!;
  if (
    request.expected !== undefined &&
    (request.expected < 0n || request.expected >> BigInt(d.bits) !== 0n)
  ) {
    return {
      ok: false,
      error: `expected result must be a ${d.bits}-bit pattern; got ${request.expected}`,
    };
  }

  const build = buildArch(form, target);
  const archFlags = /[af]$/.test(build.arch)
    ? [`-arch=${build.arch.replace(/^sm_/, 'compute_')}`, `-code=${build.arch}`]
    : [`-arch=${build.arch}`];
  const compileCommand = `nvcc ${archFlags.join(' ')} repro.cu -o repro && ./repro`;
  const notes = [
    build.why,
    ptxNote(form, request.ptx),
    ...(form.modifiers.includes('oob') ? [OOB_FORM_NOTE] : []),
  ];
  const source = [
    ...header(form, request, build, compileCommand, notes, sources),
    // A tensor core: a warp or a warpgroup, its fragments loaded per the ISA's layouts
    // (present/matrix-kernel.ts).
    ...(form.matrix
      ? matrixKernel(
          form,
          Object.fromEntries(sources.map((x) => [x.register.name, x.bits])),
          request.aSource,
        )
      : kernel(form)),
    ...hostMain(form, sources, request.expected),
  ].join('\n');
  return { ok: true, source, compileCommand, arch: build.arch, archFlags, notes };
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
  const provides = form.requirements.every((r) =>
    requirementReasons(r, chosen, NEWEST_PTX).every((x) => x.code !== 'target'),
  );
  const minimal = findTarget(form.minTarget)!;
  const leastNumber = Math.max(minimal.number, CUDA_MIN_SM);
  const leastVariant = minimal.number >= CUDA_MIN_SM ? minimal.variant : '';
  const least = `sm_${leastNumber}${leastVariant}`;
  let why: string;
  let number = chosen.number;
  let variant = chosen.variant;
  if (!provides) {
    number = leastNumber;
    variant = leastVariant;
    why = `Built for ${least}, the least target with ${form.text}: the playground's target ${chosen.name} lacks it.`;
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
  return { arch, portableArch: least === arch ? null : least, why, runsOn };
}

function ptxNote(form: Form, ptx: string): string {
  const below = comparePtx(ptx, form.minPtx) < 0;
  return (
    `nvcc writes the PTX ISA version of its toolkit (CUDA 13.0: ${NVCC_PTX}); inline PTX cannot choose it, so the playground's PTX ISA ${ptx} only decides validity` +
    (below ? ` (${form.text} needs PTX ISA ${form.minPtx} or later).` : '.')
  );
}

const OOB_FORM_NOTE = `.oob tests a and b for the OOB-NaN pattern ${hexOf(BigInt(DEFAULT_ENGINE_OPTIONS.oobNanBits), 16)} (either sign), as an H100 does: a lane holding it gives +0.0. The program passes the registers' bits as they are, so an OOB-NaN lane reaches the GPU as that pattern.`;

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

/** How the form names its elements: the lanes of an x2 register, the elements of a conversion. */
const elementWord = (form: Form) =>
  form.operation === 'convert' || form.matrix ? 'element' : 'lane';

/**
 * `0x3c00 = 1`, `0x3c004000 = lane 0: 2, lane 1: 1`, `0x7e48 = element 0: 448, element 1: 4`:
 * each value as its editor's field shows it.
 */
function describeRegister(form: Form, register: Register, bits: bigint): string {
  const hex = hexOf(bits, register.bits);
  const places = registerPlaces(form, register.name);
  if (places.length === 0) return hex;
  const value = (i: number) => {
    const { place } = places[i]!;
    return elementReadout(bitsAt(bits, place.value), place.format).fieldText;
  };
  if (places.length === 1) return `${hex} = ${value(0)}`;
  // A tensor core's row or column numbers its k elements in order (its one element of D is 0).
  const number = (p: (typeof places)[number], i: number) => (form.matrix ? i : p.elements[0]);
  return `${hex} = ${places.map((p, i) => `${elementWord(form)} ${number(p, i)}: ${value(i)}`).join(', ')}`;
}

/** Where each element of a packed register sits, for the comment: "lane 0 = bits 0-15, …". */
function placesNote(form: Form): string | null {
  for (const r of form.registers) {
    const places = registerPlaces(form, r.name);
    if (places.length < 2) continue;
    const where = places
      .map(
        (p, i) =>
          `${elementWord(form)} ${form.matrix ? i : p.elements[0]} = bits ${p.place.slot.lo}-${p.place.slot.hi}`,
      )
      .join(', ');
    return `${r.type}: ${where}`;
  }
  return null;
}

/** Threads of the one block: a thread, a warp (mma) or a warpgroup (wgmma). */
const blockThreads = (form: Form) =>
  !form.matrix ? 1 : form.matrix.instruction === 'wgmma' ? 128 : 32;

/** Where the instruction runs: one thread, or the warp or warpgroup a tensor core needs. */
const where1 = (form: Form) =>
  !form.matrix
    ? 'in one GPU thread'
    : form.matrix.instruction === 'wgmma'
      ? 'in one warpgroup (128 threads)'
      : 'in one warp';
/** What the program prints: the result register, or a tensor core's one output element. */
const what1 = (form: Form) => (form.matrix ? 'element D[0][0]' : 'register');

function header(
  form: Form,
  request: ReproduceRequest,
  build: Build,
  compileCommand: string,
  notes: readonly string[],
  sources: readonly Source[],
): string[] {
  const d = form.registers[0]!;
  const where = placesNote(form);
  return [
    `// Reproduce ${form.text} on a GPU. Generated by PTX Float Playground.`,
    '//',
    `//   ${compileCommand}`,
    '//',
    ...commentLines(
      request.expected === undefined
        ? `Runs the instruction once, ${where1(form)}, on the operand bits below and prints the result ${what1(form)}. Exit status: 0 ran, 1 CUDA error.`
        : `Runs the instruction once, ${where1(form)}, on the operand bits below and prints the result ${what1(form)} next to the playground's answer. Exit status: 0 MATCH, 1 CUDA error, 2 MISMATCH.`,
    ),
    '//',
    `// Playground state: target ${request.target}, PTX ISA ${request.ptx}.`,
    ...notes.flatMap((n) => commentLines(n)),
    ...commentLines(`The program runs ${build.runsOn}.`),
    ...(build.portableArch
      ? [`// For any GPU that has ${form.text}, build with -arch=${build.portableArch} instead.`]
      : []),
    '//',
    `// Registers${where ? ` (${where})` : ''}:`,
    ...sources.map(
      ({ register, bits }) =>
        `//   ${register.name} .${register.type} ${describeRegister(form, register, bits)}`,
    ),
    ...(request.expected !== undefined
      ? [`//   expected d .${d.type} ${describeRegister(form, d, request.expected)}`]
      : []),
    '',
    '#include <cstdio>',
    '#include <cuda_runtime.h>',
    '',
  ];
}

/** The C type that holds a register: an 8-bit one travels in 16 bits (no 8-bit asm constraint). */
function cType(r: Register): string {
  return r.bits <= 16 ? 'unsigned short' : r.bits === 32 ? 'unsigned int' : 'unsigned long long';
}

/** The inline-asm constraint of that C type. */
function constraint(r: Register): string {
  return r.bits <= 16 ? 'h' : r.bits === 32 ? 'r' : 'l';
}

/**
 * Whether the program's arrays need 64 bits (an .f64 register). A tensor core's program passes
 * only its one element of D (its operands are in the kernel): 64 bits for an .f64 D.
 */
const wide = (form: Form) =>
  form.matrix ? form.registers[0]!.bits === 64 : form.registers.some((r) => r.bits === 64);

/**
 * The instruction as inline PTX, its operands written as its syntax line writes them (cvt's x4
 * forms: `d, {a, b, e, f}, rbits`). An 8-bit register (e2m1x2) is a `.b8` register of the asm
 * block, filled from (or read into) the 16-bit C variable.
 */
function asmText(form: Form): string {
  const index = new Map(form.registers.map((r, i) => [r.name, i]));
  const narrow = form.registers.filter((r) => r.bits === 8);
  const operandsText = sourceOf(form).line.operands.replace(/\b(d|a|b|c|e|f|rbits)\b/g, (name) =>
    narrow.some((r) => r.name === name) ? `${name}_b8` : `%${index.get(name as Register['name'])}`,
  );
  const instruction = `${form.text} ${operandsText};`;
  if (narrow.length === 0) return instruction;
  const lines = [
    `.reg .b8 ${narrow.map((r) => `${r.name}_b8`).join(', ')};`,
    ...narrow
      .filter((r) => r.name !== 'd')
      .map((r) => `cvt.u8.u16 ${r.name}_b8, %${index.get(r.name)};`),
    instruction,
    ...narrow.filter((r) => r.name === 'd').map(() => 'cvt.u16.u8 %0, d_b8;'),
  ];
  return `{\\n\\t${lines.join('\\n\\t')}\\n}`;
}

function kernel(form: Form): string[] {
  const [d, ...sources] = form.registers as [Register, ...Register[]];
  const element = wide(form) ? 'unsigned long long' : 'unsigned int';
  const inputs = sources.map((r) => `"${constraint(r)}"(${r.name})`).join(', ');
  return [
    '// The operands come from device memory, so neither nvcc nor ptxas can evaluate the',
    '// instruction at compile time: the GPU computes it.',
    `__global__ void reproduce(const ${element} *in, ${element} *out) {`,
    ...sources.map((r, i) =>
      r.bits <= 16
        ? `  const unsigned short ${r.name} = (unsigned short)in[${i}];`
        : `  const ${cType(r)} ${r.name} = in[${i}];`,
    ),
    `  ${cType(d)} d;`,
    `  asm volatile("${asmText(form)}" : "=${constraint(d)}"(d) : ${inputs});`,
    '  out[0] = d;',
    '}',
    '',
  ];
}

/** The printf format of a register's hex, of its width (`ll` where the program's values are 64-bit). */
function printfHex(r: Register, long: boolean): string {
  return `0x%0${Math.max(2, r.bits / 4)}${long ? 'll' : ''}x`;
}

function hostMain(form: Form, sources: readonly Source[], expected: bigint | undefined): string[] {
  const d = form.registers[0]!;
  const count = sources.length;
  const element = wide(form) ? 'unsigned long long' : 'unsigned int';
  const suffix = wide(form) ? 'ull' : 'u';
  const hex = (bits: bigint, width: number) => `${hexOf(bits, width)}${suffix}`;
  const operandsText = form.registers.map((r) => r.name).join(', ');
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
    // A tensor core's operands are in the kernel's fragment tables.
    ...(form.matrix
      ? []
      : [
          `  const ${element} in[${count}] = {${sources.map((s) => hex(s.bits, s.register.bits)).join(', ')}};`,
        ]),
    ...(expected !== undefined
      ? [`  const ${element} expected = ${hex(expected, d.bits)};  // PTX Float Playground`]
      : []),
    '',
    '  int device = 0;',
    '  cudaDeviceProp prop;',
    '  CHECK(cudaGetDevice(&device));',
    '  CHECK(cudaGetDeviceProperties(&prop, device));',
    '  std::printf("GPU: %s (sm_%d%d)\\n", prop.name, prop.major, prop.minor);',
    '',
    ...(form.matrix
      ? [
          `  ${element} *dOut = nullptr;`,
          `  CHECK(cudaMalloc(&dOut, sizeof(${element})));`,
          `  reproduce<<<1, ${blockThreads(form)}>>>(dOut);`,
        ]
      : [
          `  ${element} *dIn = nullptr, *dOut = nullptr;`,
          '  CHECK(cudaMalloc(&dIn, sizeof in));',
          `  CHECK(cudaMalloc(&dOut, sizeof(${element})));`,
          '  CHECK(cudaMemcpy(dIn, in, sizeof in, cudaMemcpyHostToDevice));',
          '  reproduce<<<1, 1>>>(dIn, dOut);',
        ]),
    '  CHECK(cudaGetLastError());  // the launch itself, e.g. no kernel image for this GPU',
    '  CHECK(cudaDeviceSynchronize());',
    `  ${element} d = 0;`,
    '  CHECK(cudaMemcpy(&d, dOut, sizeof d, cudaMemcpyDeviceToHost));',
    ...(form.matrix ? [] : ['  CHECK(cudaFree(dIn));']),
    '  CHECK(cudaFree(dOut));',
    '',
    `  std::printf("instruction: ${form.text} ${operandsText};\\n");`,
    ...(form.matrix
      ? []
      : sources.map(
          (s, i) =>
            `  std::printf("${label(s.register.name)} = ${printfHex(s.register, wide(form))}\\n", in[${i}]);`,
        )),
    `  std::printf("${label('d (GPU)')} = ${printfHex(d, wide(form))}\\n", d);`,
    ...(expected === undefined
      ? [
          '  std::printf("expected: none given; compare d with the playground by hand\\n");',
          '  return 0;',
        ]
      : [
          `  std::printf("${label('expected')} = ${printfHex(d, wide(form))} (PTX Float Playground)\\n", expected);`,
          '  const bool match = d == expected;',
          '  std::printf("%s\\n", match ? "MATCH" : "MISMATCH");',
          '  return match ? 0 : 2;',
        ]),
    '}',
    '',
  ];
}
