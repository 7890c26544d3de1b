import { useId } from 'react';
import { PTXAS_RELEASE } from '../catalog/assembler-notes.ts';
import {
  findTarget,
  ptxAcceptsTarget,
  PTX_VERSIONS,
  TARGETS,
  UNDOCUMENTED_FORM_FLAG,
  verdictFor,
  type Form,
} from '../catalog/index.ts';
import { useForm, useStore } from '../state/store.ts';

/** Target and PTX ISA pickers; options that cannot run the form are marked with the reason. */
export function TargetPicker() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const setTarget = useStore((s) => s.setTarget);
  const setPtx = useStore((s) => s.setPtx);
  const id = useId();
  const t = findTarget(target)!;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Target</h2>
      <div className="picker-row">
        <label>
          GPU target
          <select value={target} onChange={(e) => setTarget(e.target.value)} data-testid="target">
            {TARGETS.map((x) => {
              const v = verdictFor(form, x, ptx);
              const why = v.reasons.find((r) => r.code === 'target');
              return (
                <option key={x.name} value={x.name}>
                  {x.name}
                  {why ? ` — cannot: ${why.message.replace(/; target is .*/, '')}` : ''}
                </option>
              );
            })}
          </select>
        </label>
        <label>
          PTX ISA
          <select value={ptx} onChange={(e) => setPtx(e.target.value)} data-testid="ptx">
            {PTX_VERSIONS.map((v) => {
              const verdict = verdictFor(form, t, v);
              const why = verdict.reasons.find((r) => r.code === 'ptx-version');
              // Name what is missing ("modifier .oob requires PTX ISA 8.1"), not just the opcode.
              const short = !ptxAcceptsTarget(t, v)
                ? `no ${target}`
                : why
                  ? `cannot: ${why.message.replace(/; PTX ISA version is .*/, '')}`
                  : '';
              return (
                <option key={v} value={v}>
                  {v}
                  {short ? ` — ${short}` : ''}
                </option>
              );
            })}
          </select>
        </label>
      </div>
      <Verdict />
    </section>
  );
}

export function Verdict() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const v = verdictFor(form, findTarget(target)!, ptx);
  return (
    <div className={`verdict ${v.valid ? 'ok' : 'bad'}`} data-testid="verdict" role="status">
      {v.valid ? (
        <p>
          <strong>✓ Valid:</strong> <code>{form.text}</code> on {target} with PTX ISA {ptx}.
        </p>
      ) : (
        <>
          <p>
            <strong>✗ Not valid</strong> for {target} with PTX ISA {ptx}:
          </p>
          <ul>
            {v.reasons.map((r) => (
              <li key={r.message}>{r.message}</li>
            ))}
          </ul>
          <p>
            Valid from {v.minTarget} with PTX ISA {v.minPtx}. The results below show what the form
            would compute (a what-if).
          </p>
        </>
      )}
      {!form.documented && <UndocumentedFlag form={form} />}
    </div>
  );
}

/** A form ptxas assembles that the spec does not list: what is known and what is not. */
function UndocumentedFlag({ form }: { form: Form }) {
  return (
    <p data-testid="undocumented-flag">
      <strong>⚠ {UNDOCUMENTED_FORM_FLAG}.</strong> ptxas {PTXAS_RELEASE} assembles{' '}
      <code>{form.text}</code>, but the PTX ISA does not list it; the results below follow a{' '}
      <a href="#decision-ptxas-only-forms">documented decision</a> until a GPU measures it.
    </p>
  );
}
