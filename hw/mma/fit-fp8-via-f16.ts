/**
 * Tests one hypothesis about sm_90's FP8 mma.sync against mma captures: the GPU converts each
 * e4m3 / e5m2 element to f16 (exactly: every FP8 value is an f16 value, an e4m3 subnormal an f16
 * normal) and runs the f16 path, m16n8k32 as chained steps of 16 (or 8) products. Every element
 * of every FP8 form is set beside lib/fit-reference.ts's element for the f16 inputs, over a grid
 * around the f16 path that reproduces the f16 forms (n = 25, truncation, c aligned with the
 * products, +0 for a zero sum, ±∞ for an f32 overflow): n, the cut, the group, how c is added and
 * a product's exponent. Prints the agreeing elements per capture of the f16 path itself and of
 * the best K candidates of the grid (ranked on the first capture).
 *
 *   node bin/run-ts.mjs hw/mma/fit-fp8-via-f16.ts CAPTURE_DIR [CAPTURE_DIR …] [--top K]
 *
 * Exit status: 0 a candidate reproduces every FP8 element of every capture, 1 none, 2 bad usage.
 */
import { capturedElements, type CapturedElement } from './lib/capture-elements.ts';
import { MmaCaptureError, readMmaCapture, type MmaCapturedForm } from './lib/capture-files.ts';
import { asF16Pattern, fitElement, type FitForm, type FitParams } from './lib/fit-reference.ts';

const KEEP = { tf32: 'trunc', subnormals: 'keep' } as const;

/** The f16 path of sm_90 (the f16 forms of hw/captures/sm_90/h200/mma agree with it). */
const F16_PATH: FitParams = {
  kind: 'aligned',
  n: 25,
  cut: 'trunc',
  group: 16,
  c: 'aligned',
  productExponent: 'sum',
  f32: 'rz',
  f16: 'rne',
  overflow: 'inf',
  f32FracBits: 23,
  f16Via: 'direct',
  zero: '+0',
  read: KEEP,
};

type CMode = Pick<FitParams, 'c' | 'inter'>;
const C_MODES: readonly CMode[] = [
  { c: 'aligned' },
  { c: 'after' },
  { c: 'then-add', inter: { format: 'f32', mode: 'rne' } },
  { c: 'then-add', inter: { format: 'f32', mode: 'rz' } },
  { c: 'then-add', inter: { format: 'f16', mode: 'rne' } },
];

function candidates(): FitParams[] {
  const out: FitParams[] = [];
  for (const n of [24, 25, 26])
    for (const cut of ['trunc', 'sticky'] as const)
      for (const group of [16, 8])
        for (const cMode of C_MODES)
          for (const productExponent of ['sum', 'normalised'] as const)
            // c = then-add sums every product in one step: the group does not matter.
            if (cMode.c !== 'then-add' || group === 16)
              out.push({ ...F16_PATH, n, cut, group, ...cMode, productExponent });
  return out;
}

const name = (p: FitParams) =>
  `n=${p.n} cut=${p.cut} group=${p.group} c=${p.c}${p.inter ? `(${p.inter.format} ${p.inter.mode})` : ''} product-exponent=${p.productExponent}`;

interface Fp8Form {
  readonly text: string;
  readonly fit: FitForm;
  readonly elements: readonly CapturedElement[];
}

function fp8Forms(dir: string): Fp8Form[] {
  const { forms } = readMmaCapture(dir);
  return forms
    .filter((f: MmaCapturedForm) => ['e4m3', 'e5m2'].includes(f.form.matrix!.types.a))
    .map((f) => {
      const t = f.form.matrix!.types;
      const [fa, fb] = [t.a as 'e4m3' | 'e5m2', t.b as 'e4m3' | 'e5m2'];
      return {
        text: f.form.text,
        fit: { a: 'f16', b: 'f16', c: t.c as 'f16' | 'f32', d: t.d as 'f16' | 'f32' },
        elements: capturedElements(f).map((e) => ({
          ...e,
          a: e.a.map((x) => asF16Pattern(x, fa)),
          b: e.b.map((x) => asF16Pattern(x, fb)),
        })),
      };
    });
}

/** Elements of the forms that candidate p reproduces, and the elements. */
function agreeing(p: FitParams, forms: readonly Fp8Form[]): [number, number] {
  let agree = 0;
  let total = 0;
  for (const f of forms)
    for (const e of f.elements) {
      total++;
      if (fitElement(p, f.fit, e.a, e.b, e.c) === e.d) agree++;
    }
  return [agree, total];
}

const args = process.argv.slice(2);
let top = 5;
const dirs: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--top' && i + 1 < args.length) top = Number(args[++i]);
  else if (!args[i]!.startsWith('--')) dirs.push(args[i]!);
  else {
    console.error(`unknown argument ${args[i]}`);
    process.exit(2);
  }
}
if (dirs.length === 0 || !Number.isInteger(top) || top < 1) {
  console.error('usage: node bin/run-ts.mjs hw/mma/fit-fp8-via-f16.ts CAPTURE_DIR … [--top K]');
  process.exit(2);
}
let captures: { dir: string; forms: Fp8Form[] }[];
try {
  captures = dirs.map((dir) => ({ dir, forms: fp8Forms(dir) }));
} catch (e) {
  if (!(e instanceof MmaCaptureError)) throw e;
  console.error(e.message);
  process.exit(2);
}
// The grid ranked on the first capture; the f16 path itself (the hypothesis as stated) first.
const ranked = [
  { p: F16_PATH },
  ...candidates()
    .map((p) => ({ p, score: agreeing(p, captures[0]!.forms)[0] }))
    .sort((x, y) => y.score - x.score)
    .slice(0, top),
];
let every = false;
for (const { p } of ranked) {
  const figures = captures.map(({ dir, forms }) => {
    const each = forms.map((f) => agreeing(p, [f]));
    const agree = each.reduce((n, [a]) => n + a, 0);
    const total = each.reduce((n, [, t]) => n + t, 0);
    const perForm = each.filter(([a, t]) => a === t).length;
    return { dir, agree, total, perForm, forms: forms.length };
  });
  if (figures.every((f) => f.agree === f.total)) every = true;
  console.log(name(p));
  for (const f of figures)
    console.log(
      `  ${f.dir}: ${f.agree}/${f.total} elements agree; ${f.perForm}/${f.forms} forms on every element`,
    );
}
process.exit(every ? 0 : 1);
