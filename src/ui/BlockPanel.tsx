import { useId, useMemo, useState } from 'react';
import {
  BLOCK_SCHEMES,
  SCHEMES,
  quantizeBlock,
  type BlockScheme,
  type ScaleRule,
} from '../engine/block-scale/index.ts';
import { RULE_LABELS, SCHEME_LABELS } from '../present/block-words.ts';
import {
  blockSizeOf,
  f32HexOf,
  readRbitsList,
  readValueList,
  withScheme,
} from '../state/block-settings.ts';
import type { BlockSettings } from '../state/block-state.ts';
import { useStore } from '../state/store.ts';
import { useWorkerRequest } from '../state/use-worker-request.ts';
import { BlockDot } from './BlockDot.tsx';
import { BlockSteps } from './BlockSteps.tsx';
import { BlockValues } from './BlockValues.tsx';
import { BlockWhatIf } from './BlockWhatIf.tsx';
import './block.css';

/** Eighteen block quantizations and two storages: well under this on any device. */
const COMPARE_TIMEOUT_MS = 20_000;

/**
 * Block scaling (issue 26): a block of 32 values (16 for NVFP4) quantized to MXFP8, MXFP6,
 * MXFP4 or NVFP4 by a scale rule, every step as the PTX that computes it, the same block under
 * every scheme and rule, and the quantized block in a dot product against the exact one.
 */
export default function BlockPanel() {
  const settings = useStore((s) => s.blockSettings);
  const setSettings = useStore((s) => s.setBlockSettings);
  const [resized, setResized] = useState<string | null>(null);
  const headingId = useId();
  const info = SCHEMES[settings.scheme];

  const result = useMemo(
    () =>
      quantizeBlock({
        scheme: settings.scheme,
        scaleRule: settings.rule,
        values: settings.values,
        ...(settings.tensorAmax !== null ? { tensorAmax: settings.tensorAmax } : {}),
        ...(settings.rbits ? { rounding: 'rs', rbits: settings.rbits } : {}),
      }),
    [settings],
  );
  // Every scheme and rule is some twenty quantizations: the worker computes them.
  const compareRequest = {
    values: [...settings.values],
    ...(settings.tensorAmax !== null ? { tensorAmax: settings.tensorAmax } : {}),
  };
  const comparison = useWorkerRequest(
    'block-compare',
    `${settings.values.join(',')}/${settings.tensorAmax ?? ''}`,
    (api) => api.compareBlock(compareRequest),
    { timeoutMs: COMPARE_TIMEOUT_MS },
  ).answer;

  const pickScheme = (scheme: BlockScheme) => {
    const next = withScheme(settings, scheme);
    setResized(
      next.resized === 'cut'
        ? `${SCHEME_LABELS[scheme]} takes 16 values: kept the first 16.`
        : next.resized === 'padded'
          ? `${SCHEME_LABELS[scheme]} takes 32 values: added 16 zeros.`
          : null,
    );
    setSettings(next.settings);
  };

  return (
    <section className="block-panel" aria-labelledby={headingId} data-testid="block-panel">
      <h3 id={headingId}>Block scaling</h3>
      <p className="muted">
        A block of values shares one scale: OCP&apos;s MX formats put 32 elements under a UE8M0
        scale, NVFP4 puts 16 E2M1 elements under a UE4M3 scale and an f32 scale per tensor. Each
        step below is the PTX instruction a kernel would run.
      </p>
      <div className="block-choice" role="group" aria-label="Scheme">
        {BLOCK_SCHEMES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={s === settings.scheme}
            data-testid={`block-scheme-${s}`}
            onClick={() => pickScheme(s)}
          >
            {SCHEME_LABELS[s]}
          </button>
        ))}
      </div>
      <div className="block-choice" role="group" aria-label="Scale rule">
        {info.rules.map((r: ScaleRule) => (
          <button
            key={r}
            type="button"
            aria-pressed={r === settings.rule}
            data-testid={`block-rule-${r}`}
            title={RULE_LABELS[r]}
            onClick={() => setSettings({ ...settings, rule: r })}
          >
            {r}
          </button>
        ))}
        <span className="muted block-rule-words">{RULE_LABELS[settings.rule]}</span>
      </div>
      {resized && (
        <p className="notice info" role="status" data-testid="block-resized">
          {resized}
        </p>
      )}
      <BlockValues
        key={`block-${settings.scheme}`}
        label={`The block: ${blockSizeOf(settings.scheme)} values`}
        testId="block-values"
        values={settings.values}
        size={blockSizeOf(settings.scheme)}
        onValues={(values) => setSettings({ ...settings, values })}
      />
      <BlockOptions settings={settings} onSettings={setSettings} />
      {result.ok ? (
        <>
          <BlockSteps result={result} />
          {comparison?.status === 'pending' && (
            <p className="muted" role="status">
              Comparing every scheme and rule…
            </p>
          )}
          {comparison?.status === 'error' && (
            <p className="notice error" role="alert">
              {comparison.message}
            </p>
          )}
          {comparison?.status === 'ok' && comparison.value.ok && (
            <BlockWhatIf
              comparison={comparison.value}
              scheme={settings.scheme}
              onPick={(scheme, rule) =>
                setSettings({ ...withScheme(settings, scheme).settings, rule })
              }
            />
          )}
          <BlockDot settings={settings} row={result} onSettings={setSettings} />
        </>
      ) : (
        <p className="notice error" role="alert" data-testid="block-error">
          {result.message}
        </p>
      )}
    </section>
  );
}

/** NVFP4's tensorAmax, and the element conversions by cvt.rs with random bits. */
function BlockOptions({
  settings,
  onSettings,
}: {
  settings: BlockSettings;
  onSettings: (s: BlockSettings) => void;
}) {
  const words = blockSizeOf(settings.scheme) / 4;
  const [amaxText, setAmaxText] = useState(() =>
    settings.tensorAmax === null ? '' : f32HexOf(settings.tensorAmax),
  );
  const [rbitsText, setRbitsText] = useState(() =>
    settings.rbits ? settings.rbits.map(f32HexOf).join(', ') : '0x80ff7f01',
  );
  const amaxRead = amaxText.trim() === '' ? null : readValueList(amaxText);
  const amaxProblem =
    amaxRead === null
      ? null
      : !amaxRead.ok
        ? amaxRead.errors[0]!.message
        : amaxRead.bits.length !== 1
          ? 'one value'
          : null;
  const rbitsRead = readRbitsList(rbitsText);
  const rbitsProblem = !rbitsRead.ok
    ? `Item ${rbitsRead.errors[0]!.item}: ${rbitsRead.errors[0]!.message}`
    : rbitsRead.bits.length !== 1 && rbitsRead.bits.length !== words
      ? `${rbitsRead.bits.length} words; one, or ${words} (one per cvt of four elements)`
      : null;
  const amaxId = useId();
  const rbitsId = useId();
  return (
    <div className="block-options">
      {settings.scheme === 'nvfp4' && (
        <div>
          <label htmlFor={amaxId}>tensorAmax (empty: the block&apos;s amax)</label>
          <input
            id={amaxId}
            data-testid="block-tensor-amax"
            value={amaxText}
            spellCheck={false}
            aria-invalid={amaxProblem !== null}
            onChange={(event) => {
              const t = event.target.value;
              setAmaxText(t);
              const r = t.trim() === '' ? null : readValueList(t);
              if (r === null) onSettings({ ...settings, tensorAmax: null });
              else if (r.ok && r.bits.length === 1)
                onSettings({ ...settings, tensorAmax: r.bits[0]! });
            }}
          />
          {amaxProblem && <span className="block-problems">{amaxProblem}</span>}
        </div>
      )}
      <div>
        <label>
          <input
            type="checkbox"
            data-testid="block-rs"
            checked={settings.rbits !== null}
            onChange={(event) =>
              onSettings({
                ...settings,
                rbits:
                  event.target.checked && rbitsRead.ok && !rbitsProblem
                    ? [...rbitsRead.bits]
                    : null,
              })
            }
          />{' '}
          Convert the elements with cvt.rs (stochastic rounding), random bits:
        </label>{' '}
        <input
          id={rbitsId}
          aria-label="Random bits"
          data-testid="block-rbits"
          value={rbitsText}
          spellCheck={false}
          aria-invalid={rbitsProblem !== null}
          onChange={(event) => {
            const t = event.target.value;
            setRbitsText(t);
            const r = readRbitsList(t);
            if (settings.rbits !== null && r.ok && (r.bits.length === 1 || r.bits.length === words))
              onSettings({ ...settings, rbits: [...r.bits] });
          }}
        />
        {rbitsProblem && <span className="block-problems">{rbitsProblem}</span>}
      </div>
    </div>
  );
}
