/**
 * Where the time of the expected row hashes goes, per form, on one thread: filling the inputs
 * (plan.ts fillInputs), the engine's batch evaluation (compileFast(form).batch) and the row hash
 * (hashWords), over `rows` rows of 65,536 results. Prints each part's rate, the engine's share,
 * and what 2^32 results would take at the overall rate on this many threads.
 *
 *   node bin/run-ts.mjs hw/bench-expected.ts [--rows N] [--threads T] FORM[:SECTION] ...
 *
 * Default: add.rn.f16 mul.rn.bf16 add.rn.f16x2 fma.rn.f16:sample, 256 rows, 2 threads.
 * Each form runs in its own process (a fresh JIT: one form per worker, as compare runs them).
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../src/engine/all-families.ts';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileFast } from '../src/engine/fast/index.ts';
import { shapeByName } from './lib/expected.ts';
import { hashWords } from './lib/hash.ts';
import { fillInputs, inputArrays, ROW_LENGTH, type GeneratorName } from './lib/plan.ts';

function measure(form: string, section: GeneratorName, rows: number): number[] {
  const shape = shapeByName(form);
  const { batch } = compileFast(form);
  const inputs = inputArrays(ROW_LENGTH);
  const out = shape.resultBits === 16 ? new Uint16Array(ROW_LENGTH) : new Uint32Array(ROW_LENGTH);
  let fill = 0;
  let engine = 0;
  let hash = 0;
  // Two passes: the first warms the JIT up, the second is timed.
  for (let pass = 0; pass < 2; pass++) {
    fill = engine = hash = 0;
    for (let r = 0; r < rows; r++) {
      const row = (r * 251) % (section === 'pairs' ? 65536 : 64);
      let t = performance.now();
      fillInputs(shape, section, row * ROW_LENGTH, ROW_LENGTH, 0x5eed0001, inputs);
      fill += performance.now() - t;
      t = performance.now();
      batch(inputs, out, ROW_LENGTH);
      engine += performance.now() - t;
      t = performance.now();
      hashWords(out);
      hash += performance.now() - t;
    }
  }
  return [fill, engine, hash];
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] === self) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const n = Number(args.splice(i, 2)[1]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a positive integer`);
    return n;
  };
  const rows = option('--rows', 256);
  const threads = option('--threads', 2);
  if (process.env.PTXF_BENCH_ONE) {
    const [form, section] = args[0]!.split(':') as [string, GeneratorName | undefined];
    console.log(JSON.stringify(measure(form, section ?? 'pairs', rows)));
  } else {
    const forms =
      args.length > 0 ? args : ['add.rn.f16', 'mul.rn.bf16', 'add.rn.f16x2', 'fma.rn.f16:sample'];
    for (const spec of forms) {
      const out = execFileSync(
        process.execPath,
        [
          fileURLToPath(new URL('../bin/run-ts.mjs', import.meta.url)),
          self,
          '--rows',
          String(rows),
          spec,
        ],
        {
          env: { ...process.env, PTXF_BENCH_ONE: '1' },
          encoding: 'utf8',
        },
      );
      const [fill, engine, hash] = JSON.parse(out) as number[];
      const results = (rows * ROW_LENGTH) / 1e3; // per ms → M/s
      const total = fill! + engine! + hash!;
      const overall = results / total;
      console.log(
        `${spec}: fill ${(results / fill!).toFixed(0)} M/s, engine batch ${(results / engine!).toFixed(1)} M/s, hash ${(results / hash!).toFixed(0)} M/s; engine ${((100 * engine!) / total).toFixed(0)}% of the time; overall ${overall.toFixed(1)} M results/s a thread, 2^32 results on ${threads} threads: ${(2 ** 32 / (overall * 1e6 * threads)).toFixed(0)} s`,
      );
    }
  }
}
