import { useMemo } from 'react';
import type { Form } from '../../catalog/instruction.ts';
import type { Step } from '../../engine/steps.ts';
import { matrixChains } from '../../engine/what-if/matrix-chains.ts';
import {
  matrixOnTargets,
  WHAT_IF_TARGETS,
  type MatrixTargetOutcome,
} from '../../engine/what-if/matrix-targets.ts';
import {
  blockScaledTargetsLine,
  chainSentence,
  exactLine,
  modelLine,
  sourceLines,
  whySentence,
} from '../../present/matrix-what-if-words.ts';
import { formRegisters } from '../../state/registers.ts';
import { useResult, useStore } from '../../state/store.ts';

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

/**
 * The model the target computes the element by, with its sources; the same element on other
 * targets (one click switches), each with one sentence why it differs; the exact value and what
 * a CUDA-core loop of fma.rn in f32 and in f64 gives, each with why; and which terms the cuts
 * took how much from.
 */
export function MatrixModel({ form }: { form: Form }) {
  const target = useStore((s) => s.target);
  const registers = useStore((s) => s.registers);
  const setTarget = useStore((s) => s.setTarget);
  const targets = useMemo(
    () => (WHAT_IF_TARGETS.includes(target) ? WHAT_IF_TARGETS : [target, ...WHAT_IF_TARGETS]),
    [target],
  );
  const answers = useMemo(
    () => matrixOnTargets(form, formRegisters(form, registers), target, targets),
    [form, registers, target, targets],
  );
  const here = answers.find((a) => a.target === target);
  const reference = here?.ok ? here : null;
  return (
    <section
      className="panel matrix-model"
      aria-label="Tensor-core model"
      data-testid="matrix-model-panel"
    >
      <h3>The tensor-core model</h3>
      {reference ? (
        <>
          <p data-testid="matrix-model">{modelLine(reference.model)}.</p>
          <p className="muted">Source{reference.model.sources.length > 1 ? 's' : ''}:</p>
          <ul className="muted" data-testid="matrix-sources">
            {sourceLines(reference.model).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <p role="alert" data-testid="matrix-model">
          {here && !here.ok ? here.error : `No tensor-core model for ${target}.`}
        </p>
      )}
      {form.matrix!.blockScale ? (
        <p className="muted" data-testid="matrix-block-targets">
          {blockScaledTargetsLine(form)}
        </p>
      ) : (
        <OtherTargets targets={targets} target={target} setTarget={setTarget} />
      )}
      {!form.matrix!.blockScale && (
        <ul data-testid="matrix-why">
          {answers.map((a) =>
            a.ok ? (
              reference && a.target !== target ? (
                <li key={a.target} data-testid={`matrix-why-${a.target}`}>
                  {whySentence(reference, a)}
                </li>
              ) : null
            ) : (
              <li key={a.target}>
                {a.target}: {a.error}
              </li>
            ),
          )}
        </ul>
      )}
      {reference && <CudaCoreLoops form={form} />}
      <CutTable />
      {reference && <TargetNote reference={reference} />}
    </section>
  );
}

/** One click to the same element on another target. */
function OtherTargets({
  targets,
  target,
  setTarget,
}: {
  targets: readonly string[];
  target: string;
  setTarget: (t: string) => void;
}) {
  return (
    <>
      <h4>The same element on other targets</h4>
      <div className="target-buttons" role="group" aria-label="Switch the target">
        {targets.map((t) => (
          <button
            key={t}
            type="button"
            aria-pressed={t === target}
            data-testid={`matrix-target-${t}`}
            onClick={() => setTarget(t)}
          >
            {t}
          </button>
        ))}
      </div>
    </>
  );
}

/** The exact value, and the f32 and f64 loops of fma.rn beside the tensor core, each with why. */
function CudaCoreLoops({ form }: { form: Form }) {
  const target = useStore((s) => s.target);
  const registers = useStore((s) => s.registers);
  const chains = useMemo(() => {
    try {
      return matrixChains(form, formRegisters(form, registers), target);
    } catch {
      // The model's panel above already says why the element has no result on this target.
      return null;
    }
  }, [form, registers, target]);
  if (!chains) return null;
  return (
    <>
      <h4>The exact value, and a loop on CUDA cores</h4>
      <ul data-testid="matrix-chains">
        <li data-testid="matrix-exact">{exactLine(chains)}.</li>
        <li data-testid="matrix-chain-f32">{chainSentence(chains, 'f32')}</li>
        <li data-testid="matrix-chain-f64">{chainSentence(chains, 'f64')}</li>
      </ul>
    </>
  );
}

/** f64: the model is a chain of fused multiply-adds (its steps say so too). */
function TargetNote({ reference }: { reference: MatrixTargetOutcome }) {
  if (reference.model.chain === null) return null;
  return (
    <p className="muted">
      f64: each product is added by its own fused multiply-add, in order; nothing is cut.
    </p>
  );
}

function alignSteps(steps: readonly Step[], out: StepOf<'align'>[] = []): StepOf<'align'>[] {
  for (const s of steps) {
    if (s.kind === 'align') out.push(s);
    if (s.kind === 'fused') alignSteps(s.steps, out);
  }
  return out;
}

/** Which terms lost how much in the cut: in ulps of the result, with a bar on a log scale. */
function CutTable() {
  const result = useResult();
  const rows = useMemo(() => {
    if (!result) return [];
    return alignSteps(result.elements[0]!.steps).flatMap((step, part) =>
      step.terms.map((t) => ({
        key: `${part}-${t.source}-${t.index}`,
        term: t.source === 'c' ? (part === 0 ? 'c' : 'first half') : `a_${t.index}·b_${t.index}`,
        shift: t.shift,
        cut: t.cut.decimal,
        ulps: Number(t.cutUlps.decimal),
        ulpsText: t.cutUlps.decimal,
      })),
    );
  }, [result]);
  if (rows.length === 0) return null;
  const max = Math.max(...rows.map((r) => Math.abs(r.ulps)));
  return (
    <>
      <h4>What the cut took from each term</h4>
      {/* Scrolls sideways on a narrow screen; focusable so a keyboard can scroll it too. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Loss per term">
        <table data-testid="matrix-cuts">
          <thead>
            <tr>
              <th scope="col">Term</th>
              <th scope="col">Shift</th>
              <th scope="col">Lost (ulps of d)</th>
              <th scope="col" aria-label="Share of the largest loss" />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td className="mono">{r.term}</td>
                <td>{r.shift}</td>
                <td className="mono" title={r.cut}>
                  {r.ulpsText.length > 12 ? `${r.ulpsText.slice(0, 12)}…` : r.ulpsText}
                </td>
                <td>
                  <span
                    className="lost-bar"
                    style={{ width: `${max > 0 ? (4 * Math.abs(r.ulps)) / max : 0}rem` }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
