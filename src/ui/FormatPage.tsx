import { useId, useMemo, useState } from 'react';
import { FORMAT_NAMES, type FormatName } from '../catalog/formats.ts';
import {
  formatFacts,
  formatValues,
  VALUE_TABLE_MAX_WIDTH,
  type FormatFacts,
} from '../engine/analysis/index.ts';
import { nanWords } from '../present/analysis-words.ts';
import { exactText } from '../present/numbers.ts';
import { quickPicks } from '../state/element-view.ts';
import { formReading } from '../state/format-value.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { defaultFormatFor } from '../state/url-codec.ts';
import { hexOf } from '../engine/format.ts';
import { EveryFormat } from './EveryFormat.tsx';
import { Term } from './Term.tsx';
import './corner-cases.css';
import './formats.css';
import { loadFormatValue } from '../state/edits.ts';

/** What each format is, in a few words (PTX ISA 5.2.3 and the arithmetic's formats). */
const ABOUT: Record<FormatName, string> = {
  f16: 'IEEE 754 half precision (binary16).',
  bf16: 'bfloat16: the upper half of an .f32, with its exponent range and 8 significant bits.',
  f32: 'IEEE 754 single precision (binary32).',
  f64: 'IEEE 754 double precision (binary64).',
  tf32: "TensorFloat-32: .f32's exponent with .f16's 10 mantissa bits, held in a .b32.",
  e4m3: 'FP8 with 4 exponent bits: no infinity, one NaN per sign (all bits set); MAX_NORM 448.',
  e5m2: 'FP8 with 5 exponent bits, IEEE-style: infinities and NaNs; MAX_NORM 57344.',
  e2m3: 'FP6 with 2 exponent bits: no infinity and no NaN; MAX_NORM 7.5.',
  e3m2: 'FP6 with 3 exponent bits: no infinity and no NaN; MAX_NORM 28.',
  e2m1: 'FP4: 16 patterns, no infinity and no NaN; MAX_NORM 6.',
  ue8m0: 'An unsigned 8-bit exponent, 2^(e−127): a block scale. No sign, no zero; NaN is 0xff.',
  ue4m3:
    'FP8 without a sign: 4 exponent bits, 3 mantissa bits, the block scale of NVFP4; NaN is 0x7f.',
};

/** Where a format sits in a register, where that is not simply its own width. */
function layoutNote(facts: FormatFacts): string | null {
  const { name, width, slotBits } = facts;
  if (name === 'tf32') return 'In a .b32 register: the upper 19 bits; the 13 bits below are zero.';
  if (slotBits > width)
    return `In a register: the low ${width} bits of a byte, the ${slotBits - width} bits above are zero padding (e2m3x2 in a .b16).`;
  if (name === 'e2m1')
    return 'In a register: two to a byte (e2m1x2 in a .b8), a in the upper 4 bits.';
  return null;
}

function formula(facts: FormatFacts): string {
  if (!facts.hasSubnormals)
    return `${facts.signed ? '(−1)^s × ' : ''}2^(e − ${facts.bias})${facts.manBits > 0 ? ' × 1.m' : ''}`;
  return `${facts.signed ? '(−1)^s × ' : ''}2^(e − ${facts.bias}) × 1.m; exponent field 0: ${facts.signed ? '(−1)^s × ' : ''}2^${1 - facts.bias} × 0.m`;
}

/**
 * One value typed once in every format (EveryFormat.tsx), then a page per number format: its bit anatomy, bias, special encodings, largest and least values,
 * and for formats of 8 bits or fewer every value with the gap to the next. A value is clicked
 * into the editors: into operand a (each of its elements) of the form that reads the format,
 * the current one where it does (formReading in state/format-value.ts), so its bits and what
 * the form computes of it show above.
 */
export default function FormatPage() {
  const instr = useStore((s) => s.instr);
  const page = useStore((s) => s.formatPage);
  const setFormatPage = useStore((s) => s.setFormatPage);
  const format = page ?? defaultFormatFor(instr);
  const headingId = useId();
  return (
    <section className="format-page" aria-labelledby={headingId} data-testid="format-page">
      <EveryFormat />
      <div className="format-choice" role="group" aria-label="Format">
        {FORMAT_NAMES.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={f === format}
            data-testid={`format-${f}`}
            onClick={() => setFormatPage(f)}
          >
            .{f}
          </button>
        ))}
      </div>
      <FormatDetails key={format} format={format} headingId={headingId} />
    </section>
  );
}

function FormatDetails({ format, headingId }: { format: FormatName; headingId: string }) {
  const facts = formatFacts(format);
  const note = layoutNote(facts);
  return (
    <>
      <h3 id={headingId}>
        .{format}: {facts.signed ? '1 sign, ' : 'no sign, '}
        {facts.expBits} exponent, {facts.manBits} mantissa bits
      </h3>
      <p>{ABOUT[format]}</p>
      <Anatomy facts={facts} />
      {note && <p className="muted">{note}</p>}
      <dl className="format-facts" data-testid="format-facts">
        <div>
          <dt>
            <Term id="bias">bias</Term>
          </dt>
          <dd>{facts.bias}</dd>
        </div>
        <div>
          <dt>value</dt>
          <dd className="mono">{formula(facts)}</dd>
        </div>
        <div>
          <dt>
            <Term id="max-norm" />
          </dt>
          <dd>
            <code>{facts.maxNorm.bits}</code> ={' '}
            <span className="mono">{exactText(facts.maxNorm.value)}</span>
          </dd>
        </div>
        <div>
          <dt>{facts.hasZero ? 'least normal' : 'least value'}</dt>
          <dd>
            <code>{facts.leastNormal.bits}</code> ={' '}
            <span className="mono">{exactText(facts.leastNormal.value)}</span>
          </dd>
        </div>
        <div>
          <dt>
            least <Term id="subnormal" />
          </dt>
          <dd>
            {facts.leastSubnormal ? (
              <>
                <code>{facts.leastSubnormal.bits}</code> ={' '}
                <span className="mono">{exactText(facts.leastSubnormal.value)}</span>
              </>
            ) : (
              'none'
            )}
          </dd>
        </div>
        <div>
          <dt>zero</dt>
          <dd>{facts.hasZero ? (facts.signed ? '+0 and −0' : '+0') : 'none'}</dd>
        </div>
        <div>
          <dt>infinity</dt>
          <dd>{facts.hasInfinity ? 'exponent all ones, mantissa zero' : 'none'}</dd>
        </div>
        <div>
          <dt>NaN</dt>
          <dd>
            {nanWords(facts)}
            {facts.canonicalNaN ? (
              <>
                ; <Term id="canonical-nan" /> <code>{facts.canonicalNaN}</code>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      <Values format={format} facts={facts} />
    </>
  );
}

/** The bits of the format as labelled boxes: sign, exponent, mantissa. */
function Anatomy({ facts }: { facts: FormatFacts }) {
  return (
    <div className="format-anatomy" data-testid="format-anatomy" aria-label="Bit layout">
      {facts.fields.map((f) => (
        <span key={f.name} className={`anatomy-field ${f.name}`}>
          <span className="anatomy-bits">
            {f.hi === f.lo ? `bit ${f.hi}` : `bits ${f.hi}…${f.lo}`}
          </span>
          <span className="anatomy-name">
            {f.name} ({f.hi - f.lo + 1})
          </span>
        </span>
      ))}
    </div>
  );
}

/** A value click's target, said before any click: "operand a of cvt.rn.f16x2.e4m3x2". */
function useClickTarget(format: FormatName) {
  return formReading(format, useForm());
}

function Values({ format, facts }: { format: FormatName; facts: FormatFacts }) {
  const target = useClickTarget(format);
  const [loaded, setLoaded] = useState<string | null>(null);
  const width = facts.width;
  const rows = useMemo(
    () => (width <= VALUE_TABLE_MAX_WIDTH ? formatValues(format) : null),
    [format, width],
  );
  const split = (hex: string) => {
    const bin = BigInt(hex).toString(2).padStart(width, '0');
    return facts.fields.map((f) => bin.slice(width - 1 - f.hi, width - f.lo)).join(' ');
  };
  const pick = (bits: string, value: string) => {
    loadFormatValue(format, BigInt(bits));
    setLoaded(`${bits} = ${value}`);
  };
  const operand = target.form.elements[0]!.inputs[0]!.operand;
  const several = target.form.elements.filter((e) => e.inputs[0]!.operand === operand).length > 1;
  const where = target.asF32
    ? `nothing reads .${format}: as the .f32 that holds it, into operand ${operand} of ${target.form.text}`
    : `into operand ${operand} of ${target.form.text}${several ? ' (each of its elements)' : ''}, the form that reads .${format}`;
  return (
    <div className="format-values">
      <p className="muted" data-testid="format-click-target">
        Click a value to load it {where}: its bits and what the form computes of it show in the
        editors above.
      </p>
      {loaded && (
        <p role="status" className="note" data-testid="format-loaded">
          Loaded {loaded}. <a href="#main">See it in the editors</a>.
        </p>
      )}
      {rows ? (
        <div className="cc-scroll" role="region" aria-label={`Every .${format} value`} tabIndex={0}>
          <table className="cc-table format-table" data-testid="format-table">
            <caption>
              Every .{format} value ({rows.length} patterns), with the gap to the next larger value
            </caption>
            <thead>
              <tr>
                <th scope="col">hex</th>
                <th scope="col">{facts.fields.map((f) => f.name[0]).join(' ')}</th>
                <th scope="col">class</th>
                <th scope="col">value</th>
                <th scope="col">gap to next</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const value = exactText(r.value);
                return (
                  <tr
                    key={r.bits}
                    className={`format-row cls-${r.class}`}
                    data-testid="format-value"
                  >
                    <td>
                      <button
                        type="button"
                        className="linkish mono"
                        onClick={() => pick(r.bits, value)}
                        aria-label={`load ${r.bits} = ${value}`}
                      >
                        {r.bits}
                      </button>
                    </td>
                    <td className="mono">{split(r.bits)}</td>
                    <td>{r.class}</td>
                    <td className="cc-num mono">{value}</td>
                    <td className="cc-num mono">{r.gapToNext ? exactText(r.gapToNext) : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : (
        <>
          <p className="muted">
            .{format} has {width} bits: too many values to list; its notable ones:
          </p>
          <ul className="format-notable" data-testid="format-notable">
            {quickPicks(format).map((p) => {
              const hex = hexOf(p.bits, width);
              return (
                <li key={p.name}>
                  <button
                    type="button"
                    className="linkish"
                    onClick={() => pick(hex, p.name)}
                    aria-label={`load ${p.name} (${hex})`}
                  >
                    {p.name}
                  </button>{' '}
                  <code>{hex}</code>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
