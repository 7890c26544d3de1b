/**
 * Which parameters of the published tensor-core models reproduce an mma capture, form by form:
 * every element of the capture (exact, corner and random tiles) against the parametrised exact
 * reference of lib/fit-reference.ts, over a grid of the parameters the models vary. Prints, per
 * form, the parameter sets that agree on every element (or the closest ones, with the elements
 * they miss), and a table at the end.
 *
 *   node bin/run-ts.mjs hw/mma/fit.ts CAPTURE_DIR [--forms REGEX] [--show K] [--misses K]
 *
 * --show K    parameter sets listed per form (default 4)
 * --misses K  elements printed for the closest set of a form that no set explains (default 3)
 *
 * Exit status: 0 every form has a set that agrees everywhere, 1 some form has none, 2 bad usage.
 */
import { MmaCaptureError, readMmaCapture, type MmaCapturedForm } from './lib/capture-files.ts';
import { fitElement, type FitForm, type FitFormat, type FitParams } from './lib/fit-reference.ts';
import { capturedElements, type CapturedElement } from './lib/capture-elements.ts';

function elementsOf(captured: MmaCapturedForm): CapturedElement[] {
  const out = capturedElements(captured);
  // Corner tiles first: they tell candidates apart soonest.
  return [
    ...out.filter((e) => e.where.includes('corner')),
    ...out.filter((e) => !e.where.includes('corner')),
  ];
}

/** The grid of parameter sets for a form: only the parameters that can matter to it. */
function candidatesOf(f: FitForm, k: number): FitParams[] {
  const out: FitParams[] = [];
  const fp8 = f.a === 'e4m3' || f.a === 'e5m2';
  const tf32 = f.a === 'tf32';
  const groups = [...new Set([k, k / 2, 4, 8, 16].filter((g) => g <= k && k % g === 0 && g >= 2))];
  const base = {
    kind: 'aligned' as const,
    f32: 'rz' as const,
    f16: 'rne' as const,
    overflow: 'max' as const,
    f32FracBits: 23,
    f16Via: 'direct' as const,
    zero: 'ieee' as const,
    read: { tf32: 'trunc' as const, subnormals: 'keep' as const },
  };
  const cModes: { c: FitParams['c']; inter?: FitParams['inter'] }[] = [
    { c: 'aligned' },
    { c: 'after' },
    { c: 'then-add', inter: { format: 'f32', mode: 'rz' } },
    { c: 'then-add', inter: { format: 'f32', mode: 'rne' } },
    ...(f.d === 'f16'
      ? [{ c: 'then-add' as const, inter: { format: 'f16' as const, mode: 'rne' as const } }]
      : []),
  ];
  for (const n of fp8 ? [13, 24, 25, 26, 80] : [23, 24, 25, 26, 80])
    for (const cut of ['trunc', 'sticky'] as const)
      for (const group of groups)
        for (const cMode of cModes)
          for (const final of (f.d === 'f32' ? ['rz', 'rne'] : ['rne', 'rz']) as ('rz' | 'rne')[])
            for (const overflow of (f.d === 'f32' && final === 'rz' ? ['max', 'inf'] : ['inf']) as (
              'max' | 'inf'
            )[])
              for (const f32FracBits of fp8 && f.d === 'f32' ? [23, 13] : [23])
                for (const zero of ['+0', 'ieee'] as const)
                  for (const tf32Read of (tf32 ? ['trunc', 'rne'] : ['trunc']) as (
                    'trunc' | 'rne'
                  )[])
                    for (const subnormals of ['keep', 'flush'] as const)
                      out.push({
                        ...base,
                        n,
                        cut,
                        group,
                        ...cMode,
                        productExponent: 'sum',
                        f32: f.d === 'f32' ? final : 'rz',
                        f16: f.d === 'f16' ? final : 'rne',
                        overflow,
                        f32FracBits,
                        zero,
                        read: { tf32: tf32Read, subnormals },
                      });
  const sequence = {
    ...base,
    n: 0,
    cut: 'trunc' as const,
    group: k,
    c: 'aligned' as const,
    productExponent: 'sum' as const,
    zero: '+0' as const,
  };
  out.push({ ...sequence, kind: 'fma-chain' });
  out.push({ ...sequence, kind: 'product-chain' });
  if (k === 4) out.push({ ...sequence, kind: 'pair-chain' });
  return out;
}

export function describe(p: FitParams, f: FitForm, k: number): string {
  const toF16 = f.d === 'f16' ? ', then rn to f16' : '';
  if (p.kind === 'fma-chain') return `f32 fma.rn chain from c, in order${toF16}`;
  if (p.kind === 'product-chain') return `f32 adds (rn): ((((+0 + p0) + p1) + …) + c${toF16}`;
  if (p.kind === 'pair-chain') return `f32 adds (rn): (c + (p0 + p1)) + (p2 + p3)${toF16}`;
  const parts = [
    `n=${p.n}`,
    p.cut,
    p.group === k ? 'k whole' : `groups of ${p.group}`,
    p.c === 'aligned'
      ? 'c aligned'
      : p.c === 'after'
        ? 'c after (exact)'
        : `products to ${p.inter!.format} ${p.inter!.mode}, then + c (rn)`,
    f.d === 'f32'
      ? `f32 ${p.f32}${p.f32 === 'rz' ? `/ovf ${p.overflow}` : ''}`
      : `f16 ${p.f16}${p.f16Via === 'f32' ? ` via f32 ${p.f32}` : ''}`,
    ...(p.f32FracBits !== 23 && f.d === 'f32' ? [`e8m${p.f32FracBits}`] : []),
    `zero ${p.zero}`,
    ...(f.a === 'tf32' ? [`tf32 ${p.read.tf32}`] : []),
    `subn ${p.read.subnormals}`,
  ];
  return parts.join(', ');
}

/** Misses counted per parameter set before it is dropped (the closest is sought below this). */
const CLOSEST_CAP = 300;

interface Score {
  readonly params: FitParams;
  readonly misses: number;
  readonly first: CapturedElement[];
}

function score(p: FitParams, f: FitForm, elements: readonly CapturedElement[], cap: number): Score {
  let misses = 0;
  const first: CapturedElement[] = [];
  for (const e of elements) {
    if (fitElement(p, f, e.a, e.b, e.c) === e.d) continue;
    misses++;
    if (first.length < 8) first.push(e);
    if (misses >= cap) break;
  }
  return { params: p, misses, first };
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: node bin/run-ts.mjs hw/mma/fit.ts CAPTURE_DIR [--forms REGEX] [--show K] [--misses K]`,
  );
  process.exit(2);
}

function main(): void {
  const args = process.argv.slice(2);
  let dir: string | undefined;
  let only = /./;
  let show = 4;
  let missesShown = 3;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--forms' && i + 1 < args.length) only = new RegExp(args[++i]!);
    else if (arg === '--show' && i + 1 < args.length) show = Number(args[++i]);
    else if (arg === '--misses' && i + 1 < args.length) missesShown = Number(args[++i]);
    else if (!arg.startsWith('--') && dir === undefined) dir = arg;
    else usage(`unknown argument ${arg}`);
  }
  if (!dir) usage('no capture directory');
  let forms: MmaCapturedForm[];
  try {
    forms = readMmaCapture(dir, only).forms;
  } catch (e) {
    if (e instanceof MmaCaptureError) usage(e.message);
    throw e;
  }
  const table: string[] = [];
  let unexplained = 0;
  for (const captured of forms) {
    const form = captured.form;
    const f: FitForm = {
      a: form.matrix!.types.a as FitFormat,
      b: form.matrix!.types.b as FitFormat,
      c: form.matrix!.types.c as 'f16' | 'f32',
      d: form.matrix!.types.d as 'f16' | 'f32',
    };
    const k = form.matrix!.shape.k;
    const elements = elementsOf(captured);
    const candidates = candidatesOf(f, k);
    const full: Score[] = [];
    let best: Score | null = null;
    for (const p of candidates) {
      const s = score(p, f, elements, best ? best.misses : CLOSEST_CAP);
      if (s.misses === 0) full.push(s);
      else if (!best || s.misses < best.misses) best = s;
    }
    console.log(`${form.text}: ${elements.length} elements, ${candidates.length} parameter sets`);
    if (full.length > 0) {
      console.log(`  ${full.length} sets agree on every element, e.g.:`);
      for (const s of full.slice(0, show)) console.log(`    ${describe(s.params, f, k)}`);
      table.push(`| ${form.text} | ${full.length} | ${describe(full[0]!.params, f, k)} |`);
    } else {
      unexplained++;
      const atLeast = best!.misses >= CLOSEST_CAP ? '≥ ' : '';
      console.log(
        `  no set agrees everywhere; closest misses ${atLeast}${best!.misses}: ${describe(best!.params, f, k)}`,
      );
      for (const e of best!.first.slice(0, missesShown)) {
        const got = fitElement(best!.params, f, e.a, e.b, e.c);
        console.log(
          `    ${e.where}: fit 0x${got.toString(16)}, measured 0x${e.d.toString(16)}; a=${e.a.map((x) => x.toString(16)).join(',')} b=${e.b.map((x) => x.toString(16)).join(',')} c=${e.c.toString(16)}`,
        );
      }
      table.push(
        `| ${form.text} | 0 | closest (${best!.misses >= CLOSEST_CAP ? '≥ ' : ''}${best!.misses} elements differ): ${describe(best!.params, f, k)} |`,
      );
    }
  }
  console.log('\n| form | sets that agree everywhere | first such set |\n| --- | --- | --- |');
  for (const line of table) console.log(line);
  process.exit(unexplained > 0 ? 1 : 0);
}

main();
