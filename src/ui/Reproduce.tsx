import { useId, useMemo, useState } from 'react';
import { reproduceProgram } from '../state/reproduce-cuda.ts';
import type { MatrixASource } from '../present/matrix-kernel.ts';
import { formRegisters } from '../state/registers.ts';
import { useResult, useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { CopyButton } from './CopyButton.tsx';
import './reproduce.css';

/**
 * A CUDA program that runs the current instruction (any form, cvt included) on the current
 * register bits on a real GPU and compares the hardware's result with the playground's.
 */
export default function Reproduce() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const registers = useStore((s) => s.registers);
  // The playground's result for these registers: the one the page shows.
  const result = useResult();
  const done = useStore((s) => s.evalStatus === 'done');
  const expected = done && result ? BigInt(result.d) : undefined;
  const headingId = useId();
  const sourceId = useId();
  // wgmma reads A from a shared-memory descriptor or from registers: the program writes either.
  const [aSource, setASource] = useState<MatrixASource>('descriptor');
  const wgmma = form.matrix?.instruction === 'wgmma';

  const program = useMemo(
    () =>
      reproduceProgram({
        form: form.text,
        registers: formRegisters(form, registers),
        target,
        ptx,
        ...(expected === undefined ? {} : { expected }),
        ...(wgmma ? { aSource } : {}),
      }),
    [form, registers, target, ptx, expected, wgmma, aSource],
  );

  return (
    <div className="reproduce" data-testid="reproduce">
      <h3 id={headingId}>Reproduce on a GPU</h3>
      <p>
        Save this program as <code>repro.cu</code> and build it with CUDA 13 on a machine with an
        NVIDIA GPU. It runs <code>{form.text}</code> once on these register bits and prints the
        GPU&apos;s result next to the playground&apos;s, with MATCH or MISMATCH.
      </p>
      {wgmma && (
        <label className="repro-a-source">
          A of wgmma.mma_async from{' '}
          <select
            value={aSource}
            data-testid="repro-a-source"
            onChange={(e) => setASource(e.target.value as MatrixASource)}
          >
            <option value="descriptor">shared memory (a matrix descriptor)</option>
            <option value="registers">registers</option>
          </select>
        </label>
      )}
      {!program.ok ? (
        <p className="error" role="alert" data-testid="repro-error">
          No program for this state: {program.error}
        </p>
      ) : (
        <>
          <ul className="note" data-testid="repro-notes">
            {program.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
            {expected === undefined && (
              <li>
                The playground&apos;s result is not ready, so the program prints the GPU&apos;s
                result without comparing it.
              </li>
            )}
          </ul>
          <p className="repro-command">
            Build and run: <code data-testid="repro-command">{program.compileCommand}</code>{' '}
            <CopyButton
              text={() => program.compileCommand}
              label="Copy command"
              testId="copy-repro-command"
            />
          </p>
          <div className="repro-head">
            <h4 id={sourceId}>repro.cu</h4>
            <CopyButton text={() => program.source} label="Copy program" testId="copy-repro" />
          </div>
          {/* Focusable so keyboard users can scroll it; labelled by its file name. */}
          <pre
            className="program"
            role="region"
            aria-labelledby={sourceId}
            tabIndex={0}
            data-testid="repro-source"
          >
            <code>{program.source}</code>
          </pre>
        </>
      )}
    </div>
  );
}
