/**
 * The golden traces (tests/golden/traces.json) in words, as `ptxf eval` prints them
 * (src/present/step-words.ts, step-text.ts): every case's text is pinned in
 * tests/golden/trace-text.txt, so a change of any step's words shows up as a diff there. The file
 * is only ever written on request: a missing file, a missing section or a section for a case no
 * longer in traces.json fails. Regenerate deliberately, then review the diff before committing:
 *
 *   PTXF_UPDATE_GOLDEN=1 npx vitest run tests/step-text-golden.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EvalResult } from '../src/engine/steps.ts';
import { decisionsText, traceText } from '../src/present/step-text.ts';
import { traceWords } from '../src/present/step-words.ts';
import { decision } from '../src/engine/decisions.ts';

const TRACES = fileURLToPath(new URL('./golden/traces.json', import.meta.url));
const FILE = fileURLToPath(new URL('./golden/trace-text.txt', import.meta.url));
const UPDATE = process.env.PTXF_UPDATE_GOLDEN === '1';
const HOW_TO_UPDATE =
  'run `PTXF_UPDATE_GOLDEN=1 npx vitest run tests/step-text-golden.test.ts` and review the diff';

interface GoldenCase {
  readonly instr: string;
  readonly registers: Readonly<Record<string, string>>;
  readonly result: EvalResult;
}

const golden = JSON.parse(readFileSync(TRACES, 'utf8')) as Record<string, GoldenCase>;

/** One case as text: its heading, the instruction and its registers, then what ptxf eval prints. */
function caseText(c: GoldenCase): string {
  const registers = Object.entries(c.registers).map(([name, bits]) => `${name}=${bits}`);
  const words = traceWords(c.result, decision);
  return [
    `${c.instr} ${registers.join(' ')} → d = ${c.result.d}`,
    ...traceText(words),
    ...decisionsText(words),
  ].join('\n');
}

const HEADING = /^## (.+)$/gm;

/** The file's sections by case name. */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const heads = [...text.matchAll(HEADING)];
  heads.forEach((h, i) => {
    const end = i + 1 < heads.length ? heads[i + 1]!.index : text.length;
    out.set(h[1]!, text.slice(h.index + h[0].length + 1, end).trimEnd());
  });
  return out;
}

describe('the golden traces in words', () => {
  const actual = new Map(Object.entries(golden).map(([name, c]) => [name, caseText(c)]));
  if (UPDATE) {
    const text = [...actual].map(([name, t]) => `## ${name}\n${t}\n`).join('\n');
    writeFileSync(FILE, text);
    console.warn(`golden trace text: PTXF_UPDATE_GOLDEN=1 wrote ${FILE}; review the diff`);
  }
  const pinned = existsSync(FILE) ? sections(readFileSync(FILE, 'utf8')) : null;

  it('the golden text file exists', () => {
    expect(pinned, `${FILE} is missing: to create it, ${HOW_TO_UPDATE}`).not.toBeNull();
  });
  it('holds no case that traces.json no longer has', () => {
    const stale = [...(pinned?.keys() ?? [])].filter((name) => !actual.has(name));
    expect(stale, `sections without a case (to drop them, ${HOW_TO_UPDATE})`).toEqual([]);
  });
  it.each([...actual.keys()])('%s', (name) => {
    const want = pinned?.get(name);
    if (want === undefined)
      throw new Error(`${FILE} has no section for "${name}": to add it, ${HOW_TO_UPDATE}`);
    expect(actual.get(name)).toBe(want);
  });
});
