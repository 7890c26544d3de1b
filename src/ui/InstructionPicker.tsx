import { useEffect, useId, useRef, useState } from 'react';
import {
  OPCODES,
  findForm,
  parseAnyInstruction,
  type Form,
  type InstrType,
  type Modifier,
  type Opcode,
} from '../catalog/index.ts';
import {
  ALL_TYPES,
  chooseForm,
  modifierChoices,
  modifierLimit,
  switchForm,
  typeLimit,
  typeUnavailable,
} from '../state/form-choice.ts';
import { useCvtForm } from '../state/any-form.ts';
import { DEFAULT_CVT_FORM } from '../state/cvt-form-choice.ts';
import { useStore } from '../state/store.ts';
import { CvtInstructionPicker } from './CvtInstructionPicker.tsx';
import { ModifierFlags } from './ModifierFlags.tsx';
import { TypeOption } from './TypeOption.tsx';

/** The pickers of the current form: the arithmetic's, or cvt's (CvtInstructionPicker.tsx). */
export function InstructionPicker() {
  const cvt = useCvtForm();
  const instr = useStore((s) => s.instr);
  return cvt ? <CvtInstructionPicker form={cvt} /> : <ArithmeticPicker form={findForm(instr)!} />;
}

/** Opcode, type and modifier pickers plus a text field; all four always show the same form. */
function ArithmeticPicker({ form }: { form: Form }) {
  const setInstr = useStore((s) => s.setInstr);
  const ids = useId();
  return (
    <section className="panel" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Instruction</h2>
      <InstructionText />
      <FormPickers form={form} onPick={setInstr} offerCvt />
    </section>
  );
}

/**
 * The opcode, type, rounding and modifier pickers of a form, offering what the catalog has
 * (also B's pickers in compare mode, their labels then starting with `labelPrefix`). With
 * `offerCvt` the opcode picker also offers cvt, which opens cvt's own pickers.
 */
export function FormPickers({
  form,
  onPick,
  labelPrefix = '',
  offerCvt = false,
}: {
  form: Form;
  onPick: (text: string) => void;
  labelPrefix?: string;
  offerCvt?: boolean;
}) {
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const choices = modifierChoices(form.opcode, form.type);
  const rounding = form.modifiers.find((m) => ['rn', 'rz', 'rm', 'rp'].includes(m)) ?? null;
  const flags = form.modifiers.filter((m) => !['rn', 'rz', 'rm', 'rp'].includes(m));

  const pick = (wanted: Modifier[], keep?: Modifier) =>
    onPick(chooseForm(form.opcode, form.type, wanted, keep).text);

  return (
    <>
      <div className="picker-row">
        <label>
          {labelPrefix}Opcode
          <select
            value={form.opcode}
            data-testid={offerCvt ? 'opcode' : undefined}
            onChange={(e) =>
              onPick(
                e.target.value === 'cvt'
                  ? DEFAULT_CVT_FORM
                  : switchForm(form, e.target.value as Opcode).text,
              )
            }
          >
            {OPCODES.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
            {offerCvt && <option value="cvt">cvt</option>}
          </select>
        </label>
        <label>
          {labelPrefix}Type
          <select
            value={form.type}
            onChange={(e) =>
              onPick(switchForm(form, form.opcode, e.target.value as InstrType).text)
            }
          >
            {ALL_TYPES.map((t) => {
              const missing = typeUnavailable(form.opcode, t);
              const limit = missing ? null : typeLimit(form.opcode, t, target, ptx);
              return <TypeOption key={t} type={t} missing={missing} limit={limit} />;
            })}
          </select>
        </label>
        {choices.rounding.length > 0 && (
          <label>
            {labelPrefix}Rounding
            <select
              value={rounding ?? ''}
              onChange={(e) =>
                pick([...(e.target.value ? [e.target.value as Modifier] : []), ...flags])
              }
            >
              {choices.rounding.map((r) => (
                <option key={r ?? 'default'} value={r ?? ''}>
                  {r ? `.${r}` : `(default: .${choices.defaultRounding})`}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {choices.flags.length > 0 && (
        <ModifierFlags
          legend={`${labelPrefix}Modifiers`}
          flags={choices.flags}
          target={target}
          stateOf={(m) => {
            const on = flags.includes(m);
            return {
              on,
              mandatory:
                on &&
                chooseForm(
                  form.opcode,
                  form.type,
                  form.modifiers.filter((x) => x !== m),
                ).modifiers.includes(m),
              limit: modifierLimit(form.opcode, form.type, m, target, ptx),
            };
          }}
          onToggle={(m, on) =>
            pick(
              on ? form.modifiers.filter((x) => x !== m) : [...form.modifiers, m],
              on ? undefined : m,
            )
          }
        />
      )}
    </>
  );
}

/**
 * A typed or pasted instruction or whole PTX line, of any opcode cvt included; parse errors are
 * shown where they are.
 */
export function InstructionText() {
  const instr = useStore((s) => s.instr);
  const setInstr = useStore((s) => s.setInstr);
  const [draft, setDraft] = useState(instr);
  const id = useId();
  // One history entry per typing session: the first form typed since focus pushes (so Back
  // returns to the form before the typing), later keystrokes replace it.
  const typedSinceFocus = useRef(false);

  // Follow picks made elsewhere, unless the draft already says the same instruction.
  useEffect(() => {
    setDraft((d) => {
      const parsed = parseAnyInstruction(d);
      return parsed.ok && parsed.form.text === instr ? d : instr;
    });
  }, [instr]);

  const parsed = parseAnyInstruction(draft);
  const onChange = (text: string) => {
    setDraft(text);
    const p = parseAnyInstruction(text);
    if (p.ok && p.form.text !== instr) {
      setInstr(p.form.text, typedSinceFocus.current ? 'replace' : 'push');
      typedSinceFocus.current = true;
    }
  };
  return (
    <div className="instr-text">
      <label htmlFor={id}>Type or paste an instruction or a PTX line</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        value={draft}
        aria-invalid={!parsed.ok}
        aria-describedby={!parsed.ok ? `${id}-err` : parsed.spelling ? `${id}-spelling` : undefined}
        data-testid="instr-text"
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => {
          typedSinceFocus.current = false;
        }}
      />
      {parsed.ok && parsed.spelling && (
        // An order ptxas accepts: the form it spells is shown, with the spec's spelling.
        <p id={`${id}-spelling`} className="note" role="status" data-testid="spelling-note">
          {parsed.spelling.message}.
        </p>
      )}
      {!parsed.ok && (
        <div id={`${id}-err`} className="parse-error" role="alert" data-testid="parse-error">
          <pre className="mono" aria-hidden="true">
            {draft}
            {'\n'}
            {' '.repeat(parsed.error.position)}
            {'^'.repeat(
              Math.max(1, Math.min(parsed.error.length, draft.length - parsed.error.position || 1)),
            )}
          </pre>
          <p>
            At column {parsed.error.position + 1}: {parsed.error.message}. Still showing{' '}
            <code>{instr}</code>.
          </p>
        </div>
      )}
    </div>
  );
}
