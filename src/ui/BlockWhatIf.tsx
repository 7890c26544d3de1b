import type { BlockComparison, BlockScheme, ScaleRule } from '../engine/block-scale/index.ts';
import {
  entryLabel,
  figure,
  leastSentence,
  lossWords,
  ruleSentence,
} from '../present/block-words.ts';

/**
 * What if: the same block under every scheme and scale rule, and stored as f32 or bf16, side by
 * side; which loses least, and why. A row is clicked to show that scheme and rule above.
 */
export function BlockWhatIf({
  comparison,
  scheme,
  onPick,
}: {
  comparison: BlockComparison;
  scheme: BlockScheme;
  onPick: (scheme: BlockScheme, rule: ScaleRule) => void;
}) {
  const rules = ruleSentence(comparison, scheme);
  return (
    <div className="block-what-if" data-testid="block-what-if">
      <h4>What if: every scheme and rule</h4>
      <p data-testid="block-least">{leastSentence(comparison)}</p>
      {rules && <p data-testid="block-least-rule">{rules}</p>}
      <div className="block-table-wrap">
        <table className="block-table">
          <thead>
            <tr>
              <th>stored as</th>
              <th>bits a value</th>
              <th>largest error</th>
              <th>RMS</th>
              <th>lost</th>
            </tr>
          </thead>
          <tbody>
            {comparison.entries.map((e) => {
              const least = e.kind === 'block' && e.key === comparison.least;
              return (
                <tr
                  key={e.key}
                  className={least ? 'block-least' : undefined}
                  data-testid={`block-entry-${e.key.replace('/', '-')}`}
                >
                  <td>
                    {e.kind === 'block' ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => onPick(e.scheme, e.scaleRule)}
                      >
                        {entryLabel(e.key)}
                      </button>
                    ) : (
                      `${e.key} storage${e.cvtForm ? ` (${e.cvtForm})` : ''}`
                    )}
                    {least && ' — least'}
                  </td>
                  <td>{e.bitsPerValue}</td>
                  <td>{figure(e.summary.maxAbsolute.number)}</td>
                  <td>{figure(e.summary.rms)}</td>
                  <td>{lossWords(e.summary) ?? '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
