import { useMemo, useState } from 'react';
import { blockDotHandOff } from '../engine/block-scale/block-dot.ts';
import { quantizeBlock, type BlockQuantization } from '../engine/block-scale/index.ts';
import { FORMATS, hexOf } from '../engine/format.ts';
import { blockDotWords, BLOCK_MMA_TARGETS, figure } from '../present/block-words.ts';
import { exactText, signedText } from '../present/numbers.ts';
import { blockMmaQuery } from '../state/block-mma-link.ts';
import type { BlockSettings } from '../state/block-state.ts';
import { BlockValues } from './BlockValues.tsx';

/**
 * Into the tensor core: the quantized row, and a column quantized the same way (the same block,
 * or one pasted), as the block-scaled mma computes one element of D from them, against the
 * exact dot product of the original values; one link opens that element, the catalog's form with
 * these registers, on the tensor-core page.
 */
export function BlockDot({
  settings,
  row,
  onSettings,
}: {
  settings: BlockSettings;
  row: BlockQuantization;
  onSettings: (s: BlockSettings) => void;
}) {
  const [open, setOpen] = useState(settings.column !== null);
  const columnValues = settings.column ?? settings.values;
  const column = useMemo(
    () =>
      settings.column === null
        ? row
        : quantizeBlock({
            scheme: settings.scheme,
            scaleRule: settings.rule,
            values: settings.column,
            ...(settings.tensorAmax !== null ? { tensorAmax: settings.tensorAmax } : {}),
            ...(settings.rbits ? { rounding: 'rs', rbits: settings.rbits } : {}),
          }),
    [settings, row],
  );
  const handOff = useMemo(
    () => (column.ok ? blockDotHandOff(row, column, settings.values, columnValues) : null),
    [row, column, settings.values, columnValues],
  );
  if (!open)
    return (
      <div className="block-dot">
        <button type="button" data-testid="block-to-mma" onClick={() => setOpen(true)}>
          Into the tensor core: this row · a column in the block-scaled mma
        </button>
      </div>
    );
  return (
    <div className="block-dot" data-testid="block-dot">
      <h4>Into the tensor core</h4>
      <div className="block-choice" role="group" aria-label="Column">
        <button
          type="button"
          aria-pressed={settings.column === null}
          data-testid="block-column-same"
          onClick={() => onSettings({ ...settings, column: null })}
        >
          Column: the same block
        </button>
        <button
          type="button"
          aria-pressed={settings.column !== null}
          data-testid="block-column-own"
          onClick={() => onSettings({ ...settings, column: [...settings.values] })}
        >
          Column: a block of its own
        </button>
      </div>
      {settings.column !== null && (
        <BlockValues
          label={`The column: ${settings.values.length} values, quantized as the row`}
          testId="block-column"
          values={settings.column}
          size={settings.values.length}
          onValues={(values) => onSettings({ ...settings, column: values })}
        />
      )}
      {!column.ok && (
        <p className="notice error" role="alert">
          {column.message}
        </p>
      )}
      {handOff && (
        <>
          <p>
            <code className="block-form" data-testid="block-mma-form">
              {handOff.form}
            </code>
          </p>
          <p className="muted">{BLOCK_MMA_TARGETS}</p>
          <p>
            <a href={blockMmaQuery(handOff)} data-testid="block-mma-open">
              Open this element on the tensor-core page
            </a>{' '}
            <span className="muted">
              (the same form, row, column and scales: its editors, steps and other targets)
            </span>
          </p>
          {handOff.mma.ok ? (
            <dl className="block-facts" data-testid="block-mma">
              <div>
                <dt>scale_a, scale_b</dt>
                <dd>
                  {hexOf(handOff.request.scaleA[0]!, 8)} = {exactText(handOff.mma.scales[0]!.a)},{' '}
                  {hexOf(handOff.request.scaleB[0]!, 8)} = {exactText(handOff.mma.scales[0]!.b)}
                  {handOff.padding > 0 &&
                    ` (k = ${handOff.mma.k}: the block is the first chunk of 16; the other ${handOff.padding} elements are +0 under 0x38 = 1)`}
                </dd>
              </div>
              <div>
                <dt>The model</dt>
                <dd>{blockDotWords(handOff.mma)}</dd>
              </div>
              <div>
                <dt>d (f32)</dt>
                <dd data-testid="block-mma-d">
                  <code>{hexOf(handOff.mma.d, FORMATS.f32.width)}</code> ={' '}
                  {exactText(handOff.mma.value)}
                </dd>
              </div>
              {row.globalScale && handOff.result && (
                <div>
                  <dt>d × the two tensor scales (exact; a kernel multiplies in f32)</dt>
                  <dd>{exactText(handOff.result)}</dd>
                </div>
              )}
              <div>
                <dt>The exact product of the original values</dt>
                <dd data-testid="block-mma-exact">
                  {handOff.exact ? exactText(handOff.exact) : '—'}
                </dd>
              </div>
              <div>
                <dt>What quantizing and the tensor core lost</dt>
                <dd data-testid="block-mma-error">
                  {handOff.error ? signedText(handOff.error) : '—'}
                  {handOff.relative !== null && ` (relative ${figure(handOff.relative)})`}
                </dd>
              </div>
            </dl>
          ) : (
            <p className="notice error" role="alert">
              {handOff.mma.message}
            </p>
          )}
        </>
      )}
    </div>
  );
}
