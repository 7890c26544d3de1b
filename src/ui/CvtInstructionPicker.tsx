import { useId } from 'react';
import {
  ALL_OPCODES,
  findForm,
  isCvtRounding,
  type CvtForm,
  type CvtModifier,
  type CvtType,
  type Opcode,
} from '../catalog/index.ts';
import {
  chooseCvtForm,
  CVT_DESTINATIONS,
  CVT_SOURCES,
  cvtModifierChoices,
  cvtModifierLimit,
  cvtModifierMandatory,
  cvtPairLimit,
  cvtPairUnavailable,
  sourcesOf,
  switchCvtPair,
} from '../state/cvt-form-choice.ts';
import { switchForm } from '../state/form-choice.ts';
import { useStore } from '../state/store.ts';
import { DEFAULT_STATE } from '../state/url-codec.ts';
import { InstructionText } from './InstructionPicker.tsx';
import { ModifierFlags } from './ModifierFlags.tsx';
import { TypeOption } from './TypeOption.tsx';
import { Term } from './Term.tsx';

/**
 * cvt's pickers: the opcode, the destination and source types, the rounding and the other
 * modifiers, all generated from the catalog's cvt forms (cvt-form-choice.ts), plus the text
 * field. Options the chosen target or PTX ISA version cannot run are marked, not hidden.
 */
export function CvtInstructionPicker({ form }: { form: CvtForm }) {
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const setInstr = useStore((s) => s.setInstr);
  const ids = useId();
  const choices = cvtModifierChoices(form.dtype, form.atype);
  const rounding = form.modifiers.find(isCvtRounding) ?? null;
  const flags: CvtModifier[] = form.modifiers.filter((m) => !isCvtRounding(m));
  const pick = (wanted: CvtModifier[], keep?: CvtModifier) =>
    setInstr(chooseCvtForm(form.dtype, form.atype, wanted, keep).text);
  const destinationLimit = (d: CvtType) => {
    const limits = sourcesOf(d).map((a) => cvtPairLimit(d, a, target, ptx));
    return limits.every((l) => l !== null) ? limits[0]! : null;
  };

  return (
    <section className="panel" aria-labelledby={`${ids}-h`} data-testid="cvt-picker">
      <h2 id={`${ids}-h`}>Instruction</h2>
      <InstructionText />
      <div className="picker-row">
        <label>
          Opcode
          <select
            value="cvt"
            data-testid="opcode"
            onChange={(e) =>
              setInstr(switchForm(findForm(DEFAULT_STATE.instr)!, e.target.value as Opcode).text)
            }
          >
            {ALL_OPCODES.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </select>
        </label>
        <label>
          To
          <select
            value={form.dtype}
            data-testid="cvt-dtype"
            onChange={(e) => setInstr(switchCvtPair(form, e.target.value as CvtType).text)}
          >
            {CVT_DESTINATIONS.map((d) => (
              <TypeOption key={d} type={d} missing={null} limit={destinationLimit(d)} />
            ))}
          </select>
        </label>
        <label>
          From
          <select
            value={form.atype}
            data-testid="cvt-atype"
            onChange={(e) =>
              setInstr(switchCvtPair(form, form.dtype, e.target.value as CvtType).text)
            }
          >
            {CVT_SOURCES.map((a) => {
              const missing = cvtPairUnavailable(form.dtype, a);
              const limit = missing ? null : cvtPairLimit(form.dtype, a, target, ptx);
              return <TypeOption key={a} type={a} missing={missing} limit={limit} />;
            })}
          </select>
        </label>
        {choices.rounding.length > 0 && (
          <label>
            Rounding
            <select
              value={rounding ?? ''}
              data-testid="cvt-rounding"
              onChange={(e) =>
                pick(
                  [...(e.target.value ? [e.target.value as CvtModifier] : []), ...flags],
                  (e.target.value || undefined) as CvtModifier | undefined,
                )
              }
            >
              {choices.rounding.map((r) => {
                const limit = r ? cvtModifierLimit(form, r, target, ptx) : null;
                return (
                  <option key={r ?? 'default'} value={r ?? ''}>
                    {r
                      ? `.${r}`
                      : choices.defaultRounding
                        ? `(default: .${choices.defaultRounding})`
                        : '(none)'}
                    {limit ? ` ✗ ${limit}` : ''}
                  </option>
                );
              })}
            </select>
          </label>
        )}
      </div>
      {rounding === 'rs' && (
        <p className="muted picker-legend">
          <Term id="rs">.rs</Term>: each element&apos;s random bits come from <code>rbits</code>;
          the steps show the addition bit by bit.
        </p>
      )}
      {choices.flags.length > 0 && (
        <ModifierFlags
          legend="Modifiers"
          flags={choices.flags}
          target={target}
          stateOf={(m) => ({
            on: flags.includes(m),
            mandatory: cvtModifierMandatory(form, m),
            limit: cvtModifierLimit(form, m, target, ptx),
          })}
          onToggle={(m, on) =>
            pick(
              on ? form.modifiers.filter((x) => x !== m) : [...form.modifiers, m],
              on ? undefined : m,
            )
          }
          testIdOf={(m) => `cvt-mod-${m}`}
        />
      )}
    </section>
  );
}
