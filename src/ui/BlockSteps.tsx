import type { BlockQuantization, QuantizedElement } from '../engine/block-scale/index.ts';
import { FORMATS } from '../engine/format.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { figure, flagWords, lossWords } from '../present/block-words.ts';
import { exactText, ulpsText } from '../present/numbers.ts';
import { cvtTraceQuery } from '../state/block-trace-link.ts';

const f32Text = (bits: string) => shortestDecimal(BigInt(bits), FORMATS.f32);

/**
 * One quantized block, step by step: amax, the scale (exact value and stored bits), NVFP4's
 * tensor scale, the block's error, the PTX sequence with each line's result, and every element
 * from its input to its error, with its cvt one click away on the main page.
 */
export function BlockSteps({ result }: { result: BlockQuantization }) {
  const { amax, scale, globalScale, summary } = result;
  const loss = lossWords(summary);
  return (
    <div className="block-steps" data-testid="block-steps">
      <dl className="block-facts">
        <div>
          <dt>amax (the largest |value|)</dt>
          <dd data-testid="block-amax">
            {f32Text(amax.bits)} <code>{amax.bits}</code> (element {amax.index + 1})
          </dd>
        </div>
        {globalScale && (
          <div>
            <dt>
              Tensor scale (f32), from{' '}
              {globalScale.from === 'tensor-amax' ? 'tensorAmax' : "the block's amax"}
            </dt>
            <dd data-testid="block-global-scale">
              {exactText(globalScale.value)} <code>{globalScale.bits}</code>
              {globalScale.zeroReplaced && ' (the quotient was 0: 1.0 instead)'}
            </dd>
          </div>
        )}
        <div>
          <dt>Scale ({scale.format.toUpperCase()})</dt>
          <dd data-testid="block-scale">
            {scale.exponent !== null ? `2^${scale.exponent} = ` : ''}
            {exactText(scale.value)} stored as <code>{scale.bits}</code>
            {scale.saturated && ' (saturated by .satfinite)'}
          </dd>
        </div>
        <div>
          <dt>Each element decodes as stored × {exactText(result.dequantizeFactor)}</dt>
          <dd data-testid="block-summary">
            largest error {figure(summary.maxAbsolute.number)} (element{' '}
            {summary.maxAbsolute.index + 1}), RMS {figure(summary.rms)}
            {summary.maxUlps !== null && `, at most ${ulpsText(summary.maxUlps)}`}
            {loss && `; ${loss}`}
          </dd>
        </div>
      </dl>
      <details className="block-program" data-testid="block-program">
        <summary>The PTX sequence ({result.program.lines.length} instructions)</summary>
        <pre>
          {result.program.inputs
            .map(
              (i) =>
                `// ${i.register} = ${i.bits}${i.role === 'value' ? ` (value ${i.index! + 1})` : ' (tensorAmax)'}`,
            )
            .join('\n')}
          {'\n'}
          {result.program.lines
            .map(
              (l) =>
                `${l.text.padEnd(52)} // ${l.result ?? 'not run (guard false)'}${l.value ? ` = ${exactText(l.value)}` : ''}${l.inexact ? ' (rounded)' : ''}`,
            )
            .join('\n')}
        </pre>
        <p className="muted">
          The conversions:{' '}
          {result.cvtForms.map((f) => `${f.form} (${f.minTarget}, PTX ISA ${f.minPtx})`).join('; ')}
          .
        </p>
      </details>
      <div className="block-table-wrap">
        <table className="block-table" data-testid="block-elements">
          <thead>
            <tr>
              <th>#</th>
              <th>value</th>
              <th>÷ scale (f32)</th>
              <th>cvt</th>
              <th>stored</th>
              <th>decoded</th>
              <th>error</th>
              <th>relative</th>
              <th>ulps</th>
              <th>marks</th>
            </tr>
          </thead>
          <tbody>
            {result.elements.map((e) => (
              <ElementRow key={e.index} element={e} result={result} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ElementRow({
  element: e,
  result,
}: {
  element: QuantizedElement;
  result: BlockQuantization;
}) {
  const marks = flagWords(e.flags);
  return (
    <tr
      className={marks.length > 0 ? 'block-marked' : undefined}
      data-testid={`block-element-${e.index}`}
    >
      <td>{e.index + 1}</td>
      <td>{f32Text(e.input.bits)}</td>
      <td>{f32Text(e.scaled.bits)}</td>
      <td>
        <a
          href={cvtTraceQuery(e.cvt, result.cvtForms)}
          title={`${e.cvt.form}, element ${e.cvt.element}: the cvt's steps on the main page`}
          data-testid={`block-trace-${e.index}`}
        >
          trace
        </a>
      </td>
      <td>
        <code>{e.stored.bits}</code>
      </td>
      <td>{exactText(e.decoded)}</td>
      <td>{e.error ? figure(e.error.absoluteNumber) : '—'}</td>
      <td>{e.error?.relative != null ? figure(e.error.relative) : '—'}</td>
      <td>{e.error?.ulps != null ? ulpsText(e.error.ulps) : '—'}</td>
      <td>{marks.join(', ')}</td>
    </tr>
  );
}
