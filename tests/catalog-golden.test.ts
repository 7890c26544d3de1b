/**
 * The catalog's arithmetic and cvt forms, how the one parser reads what the ptxas agreement
 * suite sends, and what the one validator says, pinned in tests/golden/catalog.json.gz. The file
 * was written when the one model agreed with the arithmetic's and cvt's own generators, parsers
 * and validators, which it replaced: field by field the same forms in the same order; the same
 * readings, operands, spelling notes and refusals (but for what the one parser says better: a
 * missing modifier pointed at where it belongs, a name in another case read and refused as
 * ptxas refuses it, cvt's refusals in the arithmetic's words); on every target and PTX ISA
 * version the same verdicts and messages. A change to any of them shows up here. The file is
 * only written on request; regenerate deliberately, then review the change:
 *
 *   PTXF_UPDATE_GOLDEN=1 npx vitest run tests/catalog-golden.test.ts
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { parseInstruction } from '../src/catalog/parse-instruction.ts';
import { PTX_VERSIONS } from '../src/catalog/ptx-versions.ts';
import { findTarget, TARGETS } from '../src/catalog/targets.ts';
import { verdictFor } from '../src/catalog/verdict.ts';
import { agreementCases } from './ptxas/cases.ts';

const FILE = fileURLToPath(new URL('./golden/catalog.json.gz', import.meta.url));
const UPDATE = process.env.PTXF_UPDATE_GOLDEN === '1';
const HOW_TO_UPDATE =
  'run `PTXF_UPDATE_GOLDEN=1 npx vitest run tests/catalog-golden.test.ts` and review the change';

/** The arithmetic and cvt forms (tests/ptxas pins the matrix forms). */
const ELEMENTWISE = FORMS.filter((f) => f.family !== 'matrix');

/** A parse result as plain data: the form's text, operands and note, or the whole refusal. */
function reading(input: string): unknown {
  const r = parseInstruction(input);
  if (!r.ok) return { error: r.error };
  return { form: r.form.text, operands: r.operands, spelling: r.spelling };
}

/**
 * A form's verdicts: per target one character a PTX version (1 valid, 0 not), and a digest of
 * every reason message in that order (45 versions by 63 targets give too many to store).
 */
interface FormVerdicts {
  readonly byTarget: Readonly<Record<string, string>>;
  readonly messages: string;
}

interface Golden {
  readonly forms: readonly Form[];
  readonly readings: readonly (readonly [string, unknown])[];
  readonly ptx: readonly string[];
  readonly verdicts: Readonly<Record<string, FormVerdicts>>;
}

function verdictsOf(form: Form, targets: readonly string[], ptx: readonly string[]): FormVerdicts {
  const digest = createHash('sha256');
  const byTarget: Record<string, string> = {};
  for (const name of targets) {
    const target = findTarget(name)!;
    byTarget[name] = ptx
      .map((v) => {
        const verdict = verdictFor(form, target, v);
        for (const r of verdict.reasons) digest.update(`${name} ${v}: ${r.message}\n`);
        return verdict.valid ? '1' : '0';
      })
      .join('');
  }
  return { byTarget, messages: digest.digest('hex').slice(0, 32) };
}

/** Lines of every form with one character dropped or a few inserted (a fixed sample). */
function mutatedLines(): string[] {
  const line = fc
    .record({ form: fc.constantFrom(...ELEMENTWISE), withOperands: fc.boolean() })
    .map(({ form, withOperands }) =>
      withOperands ? `${form.text} ${form.registers.map((r) => r.name).join(', ')};` : form.text,
    );
  const mutated = fc
    .tuple(line, fc.nat(), fc.nat(), fc.string({ unit: 'binary', maxLength: 4 }), fc.boolean())
    .map(([text, at, len, insert, add]) => {
      const i = at % (text.length + 1);
      return add
        ? text.slice(0, i) + insert + text.slice(i)
        : text.slice(0, i) + text.slice(i + 1 + (len % 4));
    });
  return fc.sample(mutated, { seed: 22, numRuns: 3000 });
}

function write(): void {
  const cases = agreementCases();
  const inputs = [...cases.map((c) => c.head), ...cases.map((c) => c.line), ...mutatedLines()];
  const targets = TARGETS.map((t) => t.name);
  const golden: Golden = {
    forms: ELEMENTWISE,
    readings: inputs.map((input) => [input, reading(input)] as const),
    ptx: PTX_VERSIONS,
    verdicts: Object.fromEntries(
      ELEMENTWISE.map((f) => [f.text, verdictsOf(f, targets, PTX_VERSIONS)]),
    ),
  };
  writeFileSync(FILE, gzipSync(JSON.stringify(golden), { level: 9 }));
}

function read(): Golden {
  if (UPDATE) write();
  if (!existsSync(FILE)) throw new Error(`no ${FILE}: ${HOW_TO_UPDATE}`);
  return JSON.parse(gunzipSync(readFileSync(FILE)).toString('utf8')) as Golden;
}

const golden = read();

describe('the catalog as pinned', () => {
  it('has the arithmetic and cvt forms, field by field, in their order', () => {
    expect(golden.forms).toHaveLength(234 + 223);
    expect(ELEMENTWISE.map((f) => f.text)).toEqual(golden.forms.map((f) => f.text));
    const differ = ELEMENTWISE.filter(
      (f, i) => JSON.stringify(f) !== JSON.stringify(golden.forms[i]),
    );
    for (const f of differ) expect(f, f.text).toEqual(golden.forms.find((g) => g.text === f.text));
  });

  it('parses every input of the ptxas agreement suite and of a sample of mutated lines as pinned', () => {
    expect(golden.readings.length).toBeGreaterThan(27_000);
    for (const [input, expected] of golden.readings)
      expect(JSON.parse(JSON.stringify(reading(input))), input).toEqual(expected);
  });

  it('judges every form on every target and PTX ISA version as pinned', () => {
    let judged = 0;
    for (const [text, expected] of Object.entries(golden.verdicts)) {
      const form = findForm(text);
      expect(form, text).toBeDefined();
      const targets = Object.keys(expected.byTarget);
      const now = verdictsOf(form!, targets, golden.ptx);
      if (JSON.stringify(now) !== JSON.stringify(expected)) expect(now, text).toEqual(expected);
      judged += targets.length * golden.ptx.length;
    }
    expect(judged).toBeGreaterThan(400_000);
  });
});
