/**
 * Writes hw/forms.generated.h from the catalog: one inline-PTX device function per form with
 * its minimal sm (the arithmetic's forms, then the cvt forms of hw/lib/cvt-plan.ts), the
 * edge-value tables and the capture plan, so that hw/capture.cu builds with nvcc alone and
 * cannot drift from the TypeScript plan.
 *
 *   node bin/run-ts.mjs hw/gen-forms.ts           write the header
 *   node bin/run-ts.mjs hw/gen-forms.ts --check   exit 1 if the committed header is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EDGE_VALUES, type OperandFormat } from './lib/edges.ts';
import { ROW_HASH_NAME, ROW_HASH_SEED_HI, ROW_HASH_SEED_LO } from './lib/hash.ts';
import {
  B_XOR,
  CVT_GENERATORS,
  F64_EDGES,
  cvtCapturedForms,
  cvtMinSmOf,
  cvtSectionsOf,
  type CvtSectionName,
  type CvtShape,
} from './lib/cvt-plan.ts';
import {
  DEFAULT_SAMPLE_ROWS,
  DEFAULT_SAMPLE_SEED,
  GENERATORS,
  MAX_SAMPLE_ROWS,
  ROW_LENGTH,
  capturedForms,
  minSmOf,
  sectionsOf,
  type FormShape,
  type GeneratorName,
} from './lib/plan.ts';

export const GENERATED_HEADER = join(dirname(fileURLToPath(import.meta.url)), 'forms.generated.h');

const FORMAT_ID: Record<OperandFormat, string> = {
  f16: 'FMT_F16',
  bf16: 'FMT_BF16',
  f32: 'FMT_F32',
};
const REG_ID = { a: 0, b: 1, c: 2 } as const;

function hex(n: number, digits: number): string {
  return `0x${n.toString(16).padStart(digits, '0')}u`;
}

/** Every generator, numbered in this order in the header: the arithmetic's, then cvt's. */
const ALL_GENERATORS = [...GENERATORS, ...CVT_GENERATORS] as const;

function generatorId(name: GeneratorName | CvtSectionName): string {
  return `GEN_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** The inline-PTX body of one form: 16-bit registers use the "h" constraint, 32-bit ones "r". */
function asmBody(shape: FormShape): string[] {
  const { form } = shape;
  const registers = form.registers;
  const placeholders = registers.map((_, i) => `%${i}`).join(', ');
  const dType = registers[0]!.bits === 16 ? 'unsigned short' : 'uint32_t';
  const dConstraint = registers[0]!.bits === 16 ? '"=h"(d)' : '"=r"(d)';
  const inputs = registers
    .slice(1)
    .map((r) => (r.bits === 16 ? `"h"((unsigned short)${r.name})` : `"r"(${r.name})`));
  return [
    `    ${dType} d;`,
    `    asm("${form.text} ${placeholders};" : ${dConstraint} : ${inputs.join(', ')});`,
    `    return d;`,
  ];
}

function formStruct(shape: FormShape, index: number): string {
  const { form } = shape;
  const minSm = minSmOf(form);
  const used = new Set(shape.sources.map((s) => s.name));
  const unused = (['a', 'b', 'c'] as const).filter((n) => !used.has(n)).map((n) => `(void)${n};`);
  const src = (k: number, field: 'format' | 'reg'): string => {
    const s = shape.sources[k];
    if (!s) return field === 'format' ? 'FMT_NONE' : '-1';
    return field === 'format' ? FORMAT_ID[s.format] : String(REG_ID[s.name]);
  };
  return [
    `// ${form.text}: minimal target ${form.minTarget}, PTX ISA ${form.minPtx}`,
    `struct Form${index} {`,
    `  static constexpr int kMinSm = ${minSm};`,
    `  static constexpr int kLanes = ${shape.lanes};`,
    `  static constexpr int kResultBits = ${shape.resultBits};`,
    `  static constexpr int kSources = ${shape.sources.length};`,
    `  static constexpr int kFormat0 = ${src(0, 'format')}, kFormat1 = ${src(1, 'format')}, kFormat2 = ${src(2, 'format')};`,
    `  static constexpr int kReg0 = ${src(0, 'reg')}, kReg1 = ${src(1, 'reg')}, kReg2 = ${src(2, 'reg')};`,
    `  static constexpr int kCIndex = ${shape.sources.findIndex((s) => s.name === 'c')};`,
    `  __device__ static __forceinline__ uint32_t eval(uint32_t a, uint32_t b, uint32_t c) {`,
    ...(unused.length ? [`    ${unused.join(' ')}`] : []),
    `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= ${minSm * 10}`,
    ...asmBody(shape),
    `#else`,
    `    (void)a; (void)b; (void)c;`,
    `    __trap();  // not compiled for this architecture; the host never launches it`,
    `    return 0;`,
    `#endif`,
    `  }`,
    `};`,
  ].join('\n');
}

function tableRow(shape: FormShape, index: number): string {
  const sections = sectionsOf(shape, DEFAULT_SAMPLE_ROWS).map((s) => {
    const layout = s.layout === 'full' ? 'LAYOUT_FULL' : 'LAYOUT_HASHED_ROWS';
    const size = s.name === 'sample' ? 'kSizeFromSampleRows' : String(s.size);
    return `{${generatorId(s.name)}, ${layout}, ${size}}`;
  });
  return `    {"${shape.form.text}", ${minSmOf(shape.form)}, ${shape.lanes}, ${shape.resultBits}, ${sections.length}, {${sections.join(', ')}}, &runSection<Form${index}>, &hostInputs<Form${index}>},`;
}

/** C++ type and inline-asm constraint of a cvt register of `bits` bits. */
const CVT_REGISTER = {
  16: { type: 'unsigned short', constraint: 'h' },
  32: { type: 'uint32_t', constraint: 'r' },
  64: { type: 'unsigned long long', constraint: 'l' },
} as const;

/** One cvt form: eval(a, b) with a up to 64 bits, the result zero-extended to 64 bits. */
function cvtFormStruct(shape: CvtShape, index: number): string {
  const { form } = shape;
  const minSm = cvtMinSmOf(form);
  const d = CVT_REGISTER[shape.resultBits];
  const a = CVT_REGISTER[shape.aBits];
  const inputs = [`"${a.constraint}"((${a.type})a)`, ...(shape.hasB ? ['"r"(b)'] : [])];
  const placeholders = ['%0', '%1', ...(shape.hasB ? ['%2'] : [])].join(', ');
  return [
    `// ${form.text}: minimal target ${form.minTarget}, PTX ISA ${form.minPtx}`,
    `struct CvtForm${index} {`,
    `  static constexpr int kMinSm = ${minSm};`,
    `  static constexpr int kResultBits = ${shape.resultBits};`,
    `  static constexpr int kSourceBits = ${shape.aBits};`,
    `  static constexpr bool kHasB = ${shape.hasB};`,
    `  __device__ static __forceinline__ uint64_t eval(uint64_t a, uint32_t b) {`,
    ...(shape.hasB ? [] : ['    (void)b;']),
    `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= ${minSm * 10}`,
    `    ${d.type} d;`,
    `    asm("${form.text} ${placeholders};" : "=${d.constraint}"(d) : ${inputs.join(', ')});`,
    `    return d;`,
    `#else`,
    `    (void)a; (void)b;`,
    `    __trap();  // not compiled for this architecture; the host never launches it`,
    `    return 0;`,
    `#endif`,
    `  }`,
    `};`,
  ].join('\n');
}

function cvtTableRow(shape: CvtShape, index: number): string {
  const sections = cvtSectionsOf(shape).map((s) => {
    const layout = s.layout === 'full' ? 'LAYOUT_FULL' : 'LAYOUT_HASHED_ROWS';
    return `{${generatorId(s.name)}, ${layout}, ${s.size}}`;
  });
  return `    {"${shape.form.text}", ${cvtMinSmOf(shape.form)}, ${shape.lanes}, ${shape.resultBits}, ${sections.length}, {${sections.join(', ')}}, &runCvtSection<CvtForm${index}>, &hostCvtInputs<CvtForm${index}>},`;
}

function f64EdgeTable(): string {
  const values = F64_EDGES.map(
    ([hi, lo]) => `0x${hex(hi, 8).slice(2, -1)}${hex(lo, 8).slice(2, -1)}ull`,
  );
  return [
    `__constant__ uint64_t kF64Edges[${values.length}] = {`,
    `    ${values.join(', ')}};`,
    `static const uint64_t kHostF64Edges[${values.length}] = {`,
    `    ${values.join(', ')}};`,
    `constexpr uint32_t kF64EdgeCount = ${values.length};`,
  ].join('\n');
}

function edgeTable(format: OperandFormat): string {
  const values = EDGE_VALUES[format];
  const digits = format === 'f32' ? 8 : 4;
  return [
    `__constant__ uint32_t kEdges_${format}[${values.length}] = {`,
    `    ${values.map((v) => hex(v, digits)).join(', ')}};`,
    `static const uint32_t kHostEdges_${format}[${values.length}] = {`,
    `    ${values.map((v) => hex(v, digits)).join(', ')}};`,
    `constexpr uint32_t kEdgeCount_${format} = ${values.length};`,
  ].join('\n');
}

export function generateHeader(): string {
  const shapes = capturedForms();
  const cvtShapes = cvtCapturedForms();
  return [
    '// GENERATED by hw/gen-forms.ts from src/catalog and hw/lib: do not edit.',
    '// Regenerate with `node bin/run-ts.mjs hw/gen-forms.ts`.',
    '#pragma once',
    '#include <cstdint>',
    '',
    '#include "harness-types.cuh"',
    '',
    `constexpr uint32_t kRowLength = ${ROW_LENGTH};`,
    `constexpr uint32_t kDefaultSampleRows = ${DEFAULT_SAMPLE_ROWS};`,
    `constexpr uint32_t kMaxSampleRows = ${MAX_SAMPLE_ROWS};`,
    `constexpr uint32_t kDefaultSampleSeed = ${hex(DEFAULT_SAMPLE_SEED, 8)};`,
    `constexpr uint32_t kRowHashSeedLo = ${hex(ROW_HASH_SEED_LO, 8)};`,
    `constexpr uint32_t kRowHashSeedHi = ${hex(ROW_HASH_SEED_HI, 8)};`,
    `#define ROW_HASH_NAME "${ROW_HASH_NAME}"`,
    '',
    `enum Generator { ${ALL_GENERATORS.map((g, i) => `${generatorId(g)} = ${i}`).join(', ')} };`,
    `static const char *const kGeneratorNames[] = {${ALL_GENERATORS.map((g) => `"${g}"`).join(', ')}};`,
    `constexpr uint32_t kCvtBXor = ${hex(B_XOR, 8)};`,
    '',
    edgeTable('f16'),
    edgeTable('bf16'),
    edgeTable('f32'),
    f64EdgeTable(),
    '',
    ...shapes.map((s, i) => formStruct(s, i) + '\n'),
    ...cvtShapes.map((s, i) => cvtFormStruct(s, i) + '\n'),
    `constexpr int kFormCount = ${shapes.length + cvtShapes.length};`,
    '',
    '// One row per form: name, minimal sm, lanes, result bits, sections {generator, layout, size}',
    '// (size: results for full sections, rows for hashed ones), its section runner and its host',
    '// input generator.',
    'static const FormEntry kForms[kFormCount] = {',
    ...shapes.map(tableRow),
    ...cvtShapes.map(cvtTableRow),
    '};',
    '',
  ].join('\n');
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const text = generateHeader();
  if (process.argv.includes('--check')) {
    const current = readFileSync(GENERATED_HEADER, 'utf8');
    if (current !== text) {
      console.error(`${GENERATED_HEADER} is stale: run node bin/run-ts.mjs hw/gen-forms.ts`);
      process.exit(1);
    }
    console.log(`${GENERATED_HEADER} is up to date`);
  } else {
    writeFileSync(GENERATED_HEADER, text);
    console.log(
      `wrote ${GENERATED_HEADER} (${capturedForms().length} forms, ${cvtCapturedForms().length} cvt forms)`,
    );
  }
}
