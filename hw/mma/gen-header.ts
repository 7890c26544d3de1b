/**
 * Writes hw/mma/mma-forms.generated.h from the catalog and hw/mma/lib: per captured form its
 * geometry, element formats and layouts, its inline-PTX `mma` (one specialisation of
 * `run_mma<F>`), and the corner cases of corner-cases.ts, so that mma-capture.cu builds with
 * nvcc alone and cannot drift from the TypeScript definitions.
 *
 *   node bin/run-ts.mjs hw/mma/gen-header.ts           write the header
 *   node bin/run-ts.mjs hw/mma/gen-header.ts --check   exit 1 if the committed header is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MmaForm } from './lib/forms.ts';
import { cornerCasesOf } from './lib/corner-cases.ts';
import { PATTERN_FORMATS, type CaptureFormat } from './lib/element-patterns.ts';
import { MMA_CAPTURE_FORMS, inputGroupOf, productsOf, INPUT_GROUPS } from './lib/forms.ts';
import { slotBits } from './lib/layout.ts';
import { CASES_PER_PRODUCT, DEFAULT_MMA_SEED, DEFAULT_RANDOM_TILES } from './lib/tiles.ts';

export const MMA_GENERATED_HEADER = join(
  dirname(fileURLToPath(import.meta.url)),
  'mma-forms.generated.h',
);

const FORMAT_ORDER: readonly CaptureFormat[] = ['f16', 'bf16', 'tf32', 'f32', 'e4m3', 'e5m2'];

function hex(n: number): string {
  return `0x${n.toString(16)}u`;
}

function formatTable(): string[] {
  const rows = FORMAT_ORDER.map((name) => {
    const f = PATTERN_FORMATS[name];
    return `  {"${name}", ${f.width}, ${f.fractionBits}, ${f.bias}, ${f.maxField}, ${hex(f.maxFraction)}},`;
  });
  return [
    '// name, width, fraction bits, bias, largest finite exponent field, largest fraction there',
    'static const PatternFormat kPatternFormats[] = {',
    ...rows,
    '};',
  ];
}

const formatId = (t: string) => FORMAT_ORDER.indexOf(t as CaptureFormat);

/** The inline PTX of one form: f32 accumulators use "f" registers, everything else "r". */
function runMma(form: MmaForm, index: number): string[] {
  const { a, d } = form.matrix!.fragments;
  // An mma form's fragments of B and C are registers (only wgmma's are not).
  const b = form.matrix!.fragments.b!;
  const c = form.matrix!.fragments.c!;
  let next = 0;
  const list = (count: number) =>
    `{${Array.from({ length: count }, () => `%${next++}`).join(', ')}}`;
  const dList = list(d.count);
  const aList = list(a.count);
  const bList = list(b.count);
  const cList = list(c.count);
  const outs = Array.from({ length: d.count }, (_, i) =>
    d.type === 'f32' ? `"=f"(d${i})` : `"=r"(d[${i}])`,
  );
  const ins = [
    ...Array.from({ length: a.count }, (_, i) => `"r"(a[${i}])`),
    ...Array.from({ length: b.count }, (_, i) => `"r"(b[${i}])`),
    ...Array.from({ length: c.count }, (_, i) =>
      c.type === 'f32' ? `"f"(__uint_as_float(c[${i}]))` : `"r"(c[${i}])`,
    ),
  ];
  return [
    `template <> __device__ __forceinline__ void run_mma<${index}>(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d) {`,
    ...(d.type === 'f32'
      ? [`  float ${Array.from({ length: d.count }, (_, i) => `d${i}`).join(', ')};`]
      : []),
    `  asm volatile("${form.text} ${dList}, ${aList}, ${bList}, ${cList};"`,
    `               : ${outs.join(', ')}`,
    `               : ${ins.join(', ')});`,
    ...(d.type === 'f32'
      ? Array.from({ length: d.count }, (_, i) => `  d[${i}] = __float_as_uint(d${i});`)
      : []),
    '}',
  ];
}

function formInfo(form: MmaForm, index: number): string {
  const fragments = form.matrix!.fragments;
  const f = { ...fragments, b: fragments.b!, c: fragments.c! };
  return (
    `    case ${index}: return FormInfo{${productsOf(form)}, ${form.matrix!.shape.m}, ${form.matrix!.shape.n}, ${form.matrix!.shape.k}, ` +
    `${form.matrix!.layouts!.a === 'row' ? 1 : 0}, ${form.matrix!.layouts!.b === 'row' ? 1 : 0}, ` +
    `${formatId(form.matrix!.types.a)}, ${formatId(form.matrix!.types.b)}, ${formatId(form.matrix!.types.c)}, ${formatId(form.matrix!.types.d)}, ` +
    `${slotBits(form, 'a')}, ${slotBits(form, 'b')}, ${slotBits(form, 'c')}, ${slotBits(form, 'd')}, ` +
    `${f.a.count}, ${f.b.count}, ${f.c.count}, ${f.d.count}, ` +
    `${f.a.elements}, ${f.b.elements}, ${f.c.elements}, ${f.d.elements}};`
  );
}

function caseTables(): string[] {
  const out: string[] = [];
  const infos: string[] = [];
  MMA_CAPTURE_FORMS.forEach((form, i) => {
    const cases = cornerCasesOf(form);
    const words = cases.flatMap((c) => [...c.a, ...c.b, c.c]);
    out.push(`static const uint32_t kCaseWords${i}[] = {`);
    for (let j = 0; j < words.length; j += 12)
      out.push(
        `  ${words
          .slice(j, j + 12)
          .map(hex)
          .join(', ')},`,
      );
    out.push('};');
    out.push(
      `static const char* const kCaseNames${i}[] = {${cases.map((c) => `"${c.name}"`).join(', ')}};`,
    );
    infos.push(`  {${cases.length}, kCaseWords${i}, kCaseNames${i}},`);
  });
  return [...out, 'static const CaseTable kCaseTables[] = {', ...infos, '};'];
}

export function generateMmaHeader(): string {
  const forms = MMA_CAPTURE_FORMS;
  const lines = [
    '// GENERATED by hw/mma/gen-header.ts from src/catalog and hw/mma/lib: do not edit.',
    '#pragma once',
    '#include <cstdint>',
    '',
    `#define MMA_FORM_COUNT ${forms.length}`,
    `#define MMA_DEFAULT_SEED ${hex(DEFAULT_MMA_SEED)}`,
    `#define MMA_DEFAULT_RANDOM_TILES ${DEFAULT_RANDOM_TILES}`,
    `#define MMA_CASES_PER_PRODUCT ${CASES_PER_PRODUCT}`,
    '',
    `static const char* const kFormText[MMA_FORM_COUNT] = {`,
    ...forms.map((f) => `  "${f.text}",`),
    '};',
    `// capture file group of each form: ${INPUT_GROUPS.map((g, i) => `${i} ${g}`).join(', ')}`,
    `static const char* const kGroupNames[] = {${INPUT_GROUPS.map((g) => `"${g}"`).join(', ')}};`,
    `static const int kFormGroup[MMA_FORM_COUNT] = {${forms.map((f) => INPUT_GROUPS.indexOf(inputGroupOf(f.matrix!.types.a))).join(', ')}};`,
    '',
    ...formatTable(),
    '',
    '__host__ __device__ inline FormInfo form_info(int f) {',
    '  switch (f) {',
    ...forms.map(formInfo),
    '    default: return FormInfo{};',
    '  }',
    '}',
    '',
    'template <int F> __device__ void run_mma(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d);',
    ...forms.flatMap((f, i) => runMma(f, i)),
    '',
    '#define MMA_FOR_EACH_FORM(X) \\',
    ...forms.map((_, i) => `  X(${i})${i + 1 < forms.length ? ' \\' : ''}`),
    '',
    ...caseTables(),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = generateMmaHeader();
  if (process.argv.includes('--check')) {
    if (readFileSync(MMA_GENERATED_HEADER, 'utf8') !== text) {
      console.error(
        `${MMA_GENERATED_HEADER} is stale: run node bin/run-ts.mjs hw/mma/gen-header.ts`,
      );
      process.exit(1);
    }
    console.log(`${MMA_GENERATED_HEADER} is up to date`);
  } else {
    writeFileSync(MMA_GENERATED_HEADER, text);
    console.log(`wrote ${MMA_GENERATED_HEADER} (${MMA_CAPTURE_FORMS.length} forms)`);
  }
}
