import { useId, useMemo, useState } from 'react';
import {
  ELEMENT_FORMAT_NAMES,
  findCvtForm,
  findForm,
  slotBits,
  type ElementFormatName,
} from '../catalog/index.ts';
import { formatInfo, formatValueTable, type FormatInfo } from '../engine/index.ts';
import { elementQuickPicks, fieldsOf, valueWidth } from '../state/cvt-element-view.ts';
import { formReading } from '../state/cvt-slice.ts';
import { defaultFormatFor } from '../state/cvt-url.ts';
import { useStore } from '../state/store.ts';
import { EveryFormat } from './EveryFormat.tsx';
import { Term } from './Term.tsx';
import './corner-cases.css';
import './cvt.css';

/** What each format is, in a few words (PTX ISA 5.2.3 and the arithmetic's formats). */
const ABOUT: Record<ElementFormatName, string> = {
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
  ue8m0: 'An unsigned 8-bit exponent, 2^(e−127): a block scale. No sign, no zero; NaN is 0xFF.',
};

/** Where a format sits in a register, where that is not simply its own width. */
function layoutNote(name: ElementFormatName): string | null {
  const width = valueWidth(name);
  if (name === 'tf32') return 'In a .b32 register: the upper 19 bits; the 13 bits below are zero.';
  if (slotBits(name) > width)
    return `In a register: the low ${width} bits of a byte, the ${slotBits(name) - width} bits above are zero padding (e2m3x2 in a .b16).`;
  if (name === 'e2m1')
    return 'In a register: two to a byte (e2m1x2 in a .b8), a in the upper 4 bits.';
  return null;
}

function formula(info: FormatInfo): string {
  if (!info.signed) return `2^(e − ${info.bias})`;
  return `(−1)^s × 2^(e − ${info.bias}) × 1.m; exponent field 0: (−1)^s × 2^${1 - info.bias} × 0.m`;
}

/**
 * One value typed once in every format (EveryFormat.tsx), then a page per number format: its bit anatomy, bias, special encodings, largest and least values,
 * and for formats of 8 bits or fewer every value with the gap to the next. A value is clicked
 * into the editors: into operand a (each of its elements) of the cvt form that reads the format,
 * the current one where it does (formReading in cvt-slice.ts), so its bits and its conversion
 * show above.
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
        {ELEMENT_FORMAT_NAMES.map((f) => (
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

function FormatDetails({ format, headingId }: { format: ElementFormatName; headingId: string }) {
  const info = formatInfo(format);
  const note = layoutNote(format);
  return (
    <>
      <h3 id={headingId}>
        .{format}: {info.signed ? '1 sign, ' : 'no sign, '}
        {info.expBits} exponent, {info.manBits} mantissa bits
      </h3>
      <p>{ABOUT[format]}</p>
      <Anatomy format={format} />
      {note && <p className="muted">{note}</p>}
      <dl className="format-facts" data-testid="format-facts">
        <div>
          <dt>
            <Term id="bias">bias</Term>
          </dt>
          <dd>{info.bias}</dd>
        </div>
        <div>
          <dt>value</dt>
          <dd className="mono">{formula(info)}</dd>
        </div>
        <div>
          <dt>
            <Term id="max-norm" />
          </dt>
          <dd>
            <code>{info.maxNorm.bits}</code> = <span className="mono">{info.maxNorm.value}</span>
          </dd>
        </div>
        <div>
          <dt>{info.hasZero ? 'least normal' : 'least value'}</dt>
          <dd>
            <code>{info.minNormal.bits}</code> = <Long text={info.minNormal.value} />
          </dd>
        </div>
        <div>
          <dt>
            least <Term id="subnormal" />
          </dt>
          <dd>
            {info.minSubnormal ? (
              <>
                <code>{info.minSubnormal.bits}</code> = <Long text={info.minSubnormal.value} />
              </>
            ) : (
              'none'
            )}
          </dd>
        </div>
        <div>
          <dt>zero</dt>
          <dd>{info.hasZero ? (info.signed ? '+0 and −0' : '+0') : 'none'}</dd>
        </div>
        <div>
          <dt>infinity</dt>
          <dd>{info.hasInfinity ? 'exponent all ones, mantissa zero' : 'none'}</dd>
        </div>
        <div>
          <dt>NaN</dt>
          <dd>
            {info.nan}
            {info.canonicalNaN ? (
              <>
                ; <Term id="canonical-nan" /> <code>{info.canonicalNaN}</code>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      <Values format={format} />
    </>
  );
}

function Long({ text }: { text: string }) {
  return (
    <span className="mono" title={text}>
      {text.length > 28 ? `${Number(text).toExponential(6)}` : text}
    </span>
  );
}

/** The bits of the format as labelled boxes: sign, exponent, mantissa. */
function Anatomy({ format }: { format: ElementFormatName }) {
  const fields = fieldsOf(format);
  return (
    <div className="format-anatomy" data-testid="format-anatomy" aria-label="Bit layout">
      {fields.map((f) => (
        <span key={f.name} className={`anatomy-field ${f.name}`}>
          <span className="anatomy-bits">
            {f.from === f.to ? `bit ${f.from}` : `bits ${f.from}…${f.to}`}
          </span>
          <span className="anatomy-name">
            {f.name} ({f.from - f.to + 1})
          </span>
        </span>
      ))}
    </div>
  );
}

/** A value click's target, said before any click: "operand a of cvt.rn.f16x2.e4m3x2". */
function useClickTarget(format: ElementFormatName) {
  const instr = useStore((s) => s.instr);
  const current = findCvtForm(instr) ?? findForm(instr);
  return formReading(format, current);
}

function Values({ format }: { format: ElementFormatName }) {
  const load = useStore((s) => s.loadFormatValue);
  const target = useClickTarget(format);
  const [loaded, setLoaded] = useState<string | null>(null);
  const width = valueWidth(format);
  const rows = useMemo(() => (width <= 8 ? formatValueTable(format) : null), [format, width]);
  const fields = fieldsOf(format);
  const split = (hex: string) => {
    const bin = BigInt(hex).toString(2).padStart(width, '0');
    return fields.map((f) => bin.slice(width - 1 - f.from, width - f.to)).join(' ');
  };
  const pick = (bits: string, value: string) => {
    load(format, BigInt(bits));
    setLoaded(`${bits} = ${value}`);
  };
  const where = target.asF32
    ? `nothing reads .${format}: as the .f32 that holds it, into operand a of ${target.form.text}`
    : `into operand a of ${target.form.text}${target.form.elements.filter((e) => e.source.operand === 'a').length > 1 ? ' (each of its elements)' : ''}, the form that reads .${format}`;
  return (
    <div className="format-values">
      <p className="muted" data-testid="format-click-target">
        Click a value to load it {where}: its bits and its conversion show in the editors above.
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
                <th scope="col">{fields.map((f) => f.name[0]).join(' ')}</th>
                <th scope="col">class</th>
                <th scope="col">value</th>
                <th scope="col">gap to next</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.bits} className={`format-row cls-${r.class}`} data-testid="format-value">
                  <td>
                    <button
                      type="button"
                      className="linkish mono"
                      onClick={() => pick(r.bits, r.value)}
                      aria-label={`load ${r.bits} = ${r.value}`}
                    >
                      {r.bits}
                    </button>
                  </td>
                  <td className="mono">{split(r.bits)}</td>
                  <td>{r.class}</td>
                  <td className="cc-num mono">{r.value}</td>
                  <td className="cc-num mono">{r.gapToNext ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <>
          <p className="muted">
            .{format} has {width} bits: too many values to list; its notable ones:
          </p>
          <ul className="format-notable" data-testid="format-notable">
            {elementQuickPicks(format).map((p) => {
              const hex = `0x${p.bits
                .toString(16)
                .toUpperCase()
                .padStart(Math.ceil(width / 4), '0')}`;
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
