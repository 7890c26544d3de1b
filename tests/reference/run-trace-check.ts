/**
 * The trace checker at scale (the unit suite runs a smaller share of it):
 *   node bin/run-ts.mjs tests/reference/run-trace-check.ts [per-group=200] [seed=1]
 * - every half- and mixed-precision form but the approximate ones: `per-group` vectors of each
 *   corner group (corner-groups.ts), x2 lanes from independent groups;
 * - every approximate form, one-lane and x2, on all 65,536 lane inputs (x2: lane 1 a
 *   permutation of lane 0), and every neg/abs form on all 65,536 inputs;
 * - every cvt form: 4 × `per-group` registers (cvt-trace-vectors.ts);
 * - every matrix form on every architecture's target: its corner cases and `per-group` / 20
 *   random rows and columns, with their containers' padding set too
 *   (tests/support/matrix-trace-vectors.ts).
 * Prints the counts, the situations reached and the first disagreements; exits 1 if any.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { ALL_FORMS } from '../../src/catalog/all-forms.ts';
import { TENSOR_CORE_MODELS } from '../../src/catalog/tensor-core-models.ts';
import { matrixTraceVectors } from '../support/matrix-trace-vectors.ts';
import { vectorsFor } from './corner-groups.ts';
import { cvtTraceVectors } from './cvt-trace-vectors.ts';
import { seeded } from './cvt-vectors.ts';
import { checkTraceVector, describeChecked, everyInput, type TraceVector } from './trace-check.ts';
import { situationsOf } from './trace-coverage.ts';
import { seededPick } from './vectors.ts';

const SHOW = 20;

function main(): number {
  const perGroup = Number(process.argv[2] ?? 200);
  const seed = Number(process.argv[3] ?? 1);
  if (!Number.isSafeInteger(perGroup) || perGroup <= 0 || !Number.isSafeInteger(seed)) {
    console.error('usage: run-trace-check.ts [per-group] [seed]');
    return 2;
  }
  const pick = seededPick(seed);
  const started = performance.now();
  const situations = new Map<string, number>();
  let vectors = 0;
  let disagreeing = 0;
  const shown: string[] = [];
  const check = (v: TraceVector) => {
    const checked = checkTraceVector(v);
    vectors++;
    for (const s of situationsOf(checked.expected)) situations.set(s, (situations.get(s) ?? 0) + 1);
    if (checked.disagreements.length > 0) {
      disagreeing++;
      if (shown.length < SHOW) shown.push(describeChecked(v, checked));
    }
  };
  for (const form of ALL_FORMS) {
    // The block-scaled mma forms follow their own model (tests/block-scaled-mma.test.ts).
    if (form.matrix?.blockScale) continue;
    const unary = ['tanh', 'ex2', 'neg', 'abs'].includes(form.operation);
    const vectorsOfForm =
      form.family === 'matrix'
        ? matrixTraceVectors(
            form,
            TENSOR_CORE_MODELS.map((m) => m.targets[0]!),
            Math.max(1, Math.round(perGroup / 20)),
            seed * 7919 + form.text.length,
          )
        : form.family === 'convert'
          ? cvtTraceVectors(form, 4 * perGroup, seeded(seed * 7919 + form.text.length))
          : unary
            ? everyInput(form.text, 1)
            : vectorsFor(form, perGroup, pick);
    for (const v of vectorsOfForm) check(v);
    console.error(`${form.text}: ${vectors} vectors so far, ${disagreeing} disagreeing`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `trace checker: ${vectors} vectors, ${disagreeing} with a disagreement, ${seconds} s`,
  );
  for (const [s, n] of [...situations].sort()) console.log(`${String(n).padStart(9)}  ${s}`);
  for (const line of shown) console.log(line);
  return disagreeing === 0 ? 0 : 1;
}

process.exitCode = main();
