/**
 * Many random vectors across all catalog forms, engine against the reference model:
 *   node bin/run-ts.mjs tests/reference/run-million.ts [count=2000000] [seed=1]
 * Forms are taken round-robin; operands come from the biased generator in vectors.ts. The fast
 * path is checked on every vector, the pipeline on every TRACED_STRIDE-th; ftz forms use the
 * before-rounding tininess option on every 8th vector. Prints the counts and the first
 * mismatches; exits 1 if there are any.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { ARITHMETIC_FORMS } from './catalog-forms.ts';
import { checkVector, describeMismatch, type Mismatch } from './compare-engine.ts';
import { randomRegisters, seededPick } from './vectors.ts';

const TRACED_STRIDE = 32;
const SHOW = 20;

function main(): number {
  const count = Number(process.argv[2] ?? 2_000_000);
  const seed = Number(process.argv[3] ?? 1);
  if (!Number.isSafeInteger(count) || count <= 0 || !Number.isSafeInteger(seed)) {
    console.error('usage: run-million.ts [count] [seed]');
    return 2;
  }
  const pick = seededPick(seed);
  const mismatches: Mismatch[] = [];
  let mismatchCount = 0;
  let traced = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const form = ARITHMETIC_FORMS[i % ARITHMETIC_FORMS.length]!;
    const registers = randomRegisters(form, pick);
    const withTrace = i % TRACED_STRIDE === 0;
    const beforeRounding = form.modifiers.includes('ftz') && i % 8 === 0;
    const m = checkVector(form, registers, {
      traced: withTrace,
      ...(beforeRounding ? { options: { ftzTininess: 'before-rounding' } } : {}),
    });
    if (withTrace) traced++;
    if (m) {
      mismatchCount++;
      if (mismatches.length < SHOW) mismatches.push(m);
    }
    if ((i + 1) % 500_000 === 0) {
      console.log(
        `  ${i + 1} vectors, ${mismatchCount} mismatches, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${count} vectors over ${ARITHMETIC_FORMS.length} forms (seed ${seed}): fast path on all, pipeline on ${traced}; ` +
      `${mismatchCount} mismatches; ${seconds.toFixed(1)} s`,
  );
  for (const m of mismatches) console.log(`  ${describeMismatch(m)}`);
  return mismatchCount === 0 ? 0 : 1;
}

process.exitCode = main();
