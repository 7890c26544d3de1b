import { useId, useRef } from 'react';
import { PTXAS_RELEASE } from '../catalog/assembler-notes.ts';
import { UNDOCUMENTED_FORM_FLAG, type Form } from '../catalog/instruction.ts';
import { PTX_VERSIONS } from '../catalog/ptx-versions.ts';
import { findTarget, ptxAcceptsTarget, TARGETS, type Target } from '../catalog/targets.ts';
import { verdictFor, type Verdict as VerdictType } from '../catalog/verdict.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { bringIntoViewOnNarrow } from './narrow.ts';

/**
 * Target and PTX ISA pickers; options that cannot run the form are marked, not hidden. Option
 * texts stay short (the name, its GPUs, a mark) so a phone shows them whole; the reasons are in
 * the verdict below.
 */
export function TargetPicker() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const setTarget = useStore((s) => s.setTarget);
  const setPtx = useStore((s) => s.setPtx);
  const id = useId();
  const t = findTarget(target)!;
  const targetVerdicts = TARGETS.map((x) => ({ target: x, verdict: verdictFor(form, x, ptx) }));
  // Why the marked targets cannot: the validator's words for the first of them.
  const targetWhy = targetVerdicts
    .flatMap(({ verdict }) => verdict.reasons.filter((r) => r.code === 'target'))
    .map((r) => r.message.replace(/; target is .*/, ''))[0];
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Target</h2>
      <div className="picker-row">
        <label>
          GPU target
          <select
            value={target}
            onChange={(e) => {
              setTarget(e.target.value);
              // On a phone the verdict, the answer to "can it run there", may lie below the fold.
              bringIntoViewOnNarrow('[data-testid="verdict"]', 'nearest');
            }}
            data-testid="target"
          >
            {targetVerdicts.map(({ target: x, verdict }) => (
              <option key={x.name} value={x.name}>
                {verdict.reasons.some((r) => r.code === 'target') ? '✗ ' : ''}
                {targetText(x)}
              </option>
            ))}
          </select>
        </label>
        <label>
          PTX ISA
          <select
            value={ptx}
            onChange={(e) => {
              setPtx(e.target.value);
              bringIntoViewOnNarrow('[data-testid="verdict"]', 'nearest');
            }}
            data-testid="ptx"
          >
            {PTX_VERSIONS.map((v) => {
              const verdict = verdictFor(form, t, v);
              const why = verdict.reasons.find((r) => r.code === 'ptx-version');
              // Name what is missing (".oob needs 8.1"), not just the opcode.
              const short = !ptxAcceptsTarget(t, v)
                ? `✗ no ${target}`
                : why
                  ? `✗ ${shortPtxReason(why.message)}`
                  : '';
              return (
                <option key={v} value={v}>
                  {v}
                  {short ? ` ${short}` : ''}
                </option>
              );
            })}
          </select>
        </label>
      </div>
      {targetWhy && (
        <p className="muted picker-legend" data-testid="target-legend">
          ✗ marks the targets without this form: {targetWhy}.
        </p>
      )}
      <Verdict />
    </section>
  );
}

/** `sm_90 — H100, H200, GH200`: the target and the GPUs it runs on. */
function targetText(t: Target): string {
  return t.gpus ? `${t.name} — ${t.gpus}` : t.name;
}

/** Longest name an option text repeats; a longer one is in the verdict and the legend. */
const OPTION_NAME_LIMIT = 16;

/**
 * "modifier .oob requires PTX ISA 8.1; PTX ISA version is 8.0" → ".oob needs 8.1"; where what
 * is missing has a long name (".rs rounding mode and cvt.rs{.e2m1x4/…}"), just "needs 8.7", so
 * the option fits a phone's select whole.
 */
export function shortPtxReason(message: string): string {
  const m = /^(?:modifier )?(.*?) requires PTX ISA (\S+?);/.exec(message);
  if (!m) return message;
  return m[1]!.length > OPTION_NAME_LIMIT ? `needs ${m[2]}` : `${m[1]} needs ${m[2]}`;
}

/**
 * The least change that makes the form valid: the verdict's minimal target, keeping the chosen
 * PTX ISA version when it already serves that target, else the minimal version.
 */
function minimalSwitch(form: Form, v: VerdictType, ptx: string): { target: string; ptx: string } {
  const target = findTarget(v.minTarget)!;
  return verdictFor(form, target, ptx).valid
    ? { target: v.minTarget, ptx }
    : { target: v.minTarget, ptx: v.minPtx };
}

export function Verdict() {
  const form = useForm();
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const setTargetAndPtx = useStore((s) => s.setTargetAndPtx);
  const t = findTarget(target)!;
  const v = verdictFor(form, t, ptx);
  const fix = v.valid ? null : minimalSwitch(form, v, ptx);
  const fixTarget = fix ? findTarget(fix.target)! : null;
  // The fix button goes away with the problem it fixes: focus moves to the verdict, which now
  // says "✓ Valid", rather than falling to the page.
  const verdictRef = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={verdictRef}
      className={`verdict ${v.valid ? 'ok' : 'bad'}`}
      data-testid="verdict"
      role="status"
      tabIndex={-1}
    >
      {v.valid ? (
        <p>
          <strong>✓ Valid:</strong> <code>{form.text}</code> on {target}
          {t.gpus ? ` (${t.gpus})` : ''} with PTX ISA {ptx}.
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
          {fix && fixTarget && (
            <p>
              <button
                type="button"
                className="fix"
                data-testid="verdict-fix"
                onClick={() => {
                  setTargetAndPtx(fix.target, fix.ptx);
                  verdictRef.current?.focus();
                }}
              >
                Use {fix.target}
                {fixTarget.gpus ? ` (${fixTarget.gpus})` : ''}
                {fix.ptx !== ptx ? ` with PTX ISA ${fix.ptx}` : ''}
              </button>
            </p>
          )}
        </>
      )}
      {!form.documented && <UndocumentedFlag form={form} />}
    </div>
  );
}

/** A form ptxas assembles that the spec does not list: what is known and what is not. */
function UndocumentedFlag({ form }: { form: Form }) {
  const decision = 'ptxas-only-forms';
  return (
    <p data-testid="undocumented-flag">
      <strong>⚠ {UNDOCUMENTED_FORM_FLAG}.</strong> ptxas {PTXAS_RELEASE} assembles{' '}
      <code>{form.text}</code>, but the PTX ISA does not list it; the results below follow a{' '}
      <a href={`#decision-${decision}`}>documented decision</a> until a GPU measures it.
    </p>
  );
}
