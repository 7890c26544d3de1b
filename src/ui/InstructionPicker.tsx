import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { Form } from '../catalog/instruction.ts';
import { isRounding, type AnyModifier, type Rounding } from '../catalog/modifiers.ts';
import { parseInstruction } from '../catalog/parse-instruction.ts';
import { typeParts } from '../catalog/record.ts';
import {
  chooseForm,
  destinationLimit,
  modifierChoices,
  modifierLimit,
  modifierMandatory,
  OPCODES,
  pairUnavailable,
  PICKER_OPCODES,
  switchOpcode,
  switchPair,
  switchType,
  typeChoice,
  typeLimit,
  typeUnavailable,
} from '../state/form-choice.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { ModifierFlags } from './ModifierFlags.tsx';
import { Term } from './Term.tsx';
import { TypeOption } from './TypeOption.tsx';
import { setInstr } from '../state/edits.ts';

// The tensor cores' pickers load when a tensor-core form is first shown.
const MatrixPickers = lazy(() => import('./mma/MatrixPickers.tsx'));

/** The instruction: a text field for any instruction or PTX line, and the pickers of its form. */
export function InstructionPicker() {
  const form = useForm();
  const ids = useId();
  return (
    <section className="panel" aria-labelledby={`${ids}-h`} data-testid="instruction-picker">
      <h2 id={`${ids}-h`}>Instruction</h2>
      <InstructionText />
      <FormPickers form={form} onPick={setInstr} primary />
    </section>
  );
}

/**
 * The opcode, type, rounding and modifier pickers of a form, for every instruction, offering what
 * the catalog has (also B's pickers in compare mode, their labels then starting with
 * `labelPrefix`). An opcode whose types are one unit (`.f16x2`, `.f32.bf16`) gets one type
 * picker; one written as a destination and a source type (cvt's `.dtype.atype`) gets two. Options
 * the chosen target or PTX ISA version cannot run are marked with why, not hidden. `primary`: the
 * instruction's own pickers (they carry the test ids).
 */
export function FormPickers({
  form,
  onPick,
  labelPrefix = '',
  primary = false,
}: {
  form: Form;
  onPick: (text: string) => void;
  labelPrefix?: string;
  primary?: boolean;
}) {
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const choices = modifierChoices(form.opcode, form.type);
  const rounding = form.modifiers.find(isRounding) ?? null;
  const flags: AnyModifier[] = form.modifiers.filter((m) => !isRounding(m));
  const types = typeChoice(form.opcode);
  const testId = (id: string) => (primary ? id : undefined);
  const pick = (wanted: AnyModifier[], keep?: AnyModifier) =>
    onPick(chooseForm(form.opcode, form.type, wanted, keep).text);
  const { dtype, atype } = typeParts(form.type);
  // The instruction's own picker offers the tensor cores too; B of a comparison offers them
  // where B is one (beside a tensor-core A).
  const opcodes = primary || form.matrix ? PICKER_OPCODES : OPCODES;
  const opcodePicker = (
    <label>
      {labelPrefix}Opcode
      <select
        value={form.opcode}
        data-testid={testId('opcode')}
        onChange={(e) => onPick(switchOpcode(form, e.target.value).text)}
      >
        {opcodes.map((op) => (
          <option key={op} value={op}>
            {op}
          </option>
        ))}
      </select>
    </label>
  );
  if (form.matrix)
    return (
      <div className="picker-row">
        {opcodePicker}
        <LoadFailed what="The tensor-core pickers">
          <Suspense fallback={null}>
            <MatrixPickers
              form={form}
              onPick={onPick}
              primary={primary}
              labelPrefix={labelPrefix}
            />
          </Suspense>
        </LoadFailed>
      </div>
    );
  return (
    <>
      <div className="picker-row">
        {opcodePicker}
        {types.kind === 'one' ? (
          <label>
            {labelPrefix}Type
            <select
              value={form.type}
              data-testid={testId('type')}
              onChange={(e) => onPick(switchType(form, e.target.value).text)}
            >
              {types.types.map((t) => {
                const missing = typeUnavailable(form.opcode, t);
                const limit = missing ? null : typeLimit(form.opcode, t, target, ptx);
                return <TypeOption key={t} type={t} missing={missing} limit={limit} />;
              })}
            </select>
          </label>
        ) : (
          <>
            <label>
              {labelPrefix}To
              <select
                value={dtype}
                data-testid={testId('dtype')}
                onChange={(e) => onPick(switchPair(form, e.target.value).text)}
              >
                {types.destinations.map((d) => (
                  <TypeOption
                    key={d}
                    type={d}
                    missing={null}
                    limit={destinationLimit(form.opcode, d, target, ptx)}
                  />
                ))}
              </select>
            </label>
            <label>
              {labelPrefix}From
              <select
                value={atype}
                data-testid={testId('atype')}
                onChange={(e) => onPick(switchPair(form, dtype, e.target.value).text)}
              >
                {types.sources.map((a) => {
                  const missing = pairUnavailable(form.opcode, dtype, a);
                  const limit = missing
                    ? null
                    : typeLimit(form.opcode, `${dtype}.${a}`, target, ptx);
                  return <TypeOption key={a} type={a} missing={missing} limit={limit} />;
                })}
              </select>
            </label>
          </>
        )}
        {choices.rounding.length > 0 && (
          <label>
            {labelPrefix}Rounding
            <select
              value={rounding ?? ''}
              data-testid={testId('rounding')}
              onChange={(e) => {
                const r = (e.target.value || null) as Rounding | null;
                pick([...(r ? [r] : []), ...flags], r ?? undefined);
              }}
            >
              {choices.rounding.map((r) => {
                const limit = r ? modifierLimit(form, r, target, ptx) : null;
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
      {primary && rounding === 'rs' && (
        <p className="muted picker-legend">
          <Term id="rs">.rs</Term>: each element&apos;s random bits come from <code>rbits</code>;
          the steps show the addition bit by bit.
        </p>
      )}
      {choices.flags.length > 0 && (
        <ModifierFlags
          legend={`${labelPrefix}Modifiers`}
          flags={choices.flags}
          target={target}
          stateOf={(m) => ({
            on: flags.includes(m),
            mandatory: modifierMandatory(form, m),
            limit: modifierLimit(form, m, target, ptx),
          })}
          onToggle={(m, on) =>
            pick(
              on ? form.modifiers.filter((x) => x !== m) : [...form.modifiers, m],
              on ? undefined : m,
            )
          }
          testIdOf={primary ? (m) => `mod-${m}` : undefined}
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
  const [draft, setDraft] = useState(instr);
  const id = useId();
  // One history entry per typing session: the first form typed since focus pushes (so Back
  // returns to the form before the typing), later keystrokes replace it.
  const typedSinceFocus = useRef(false);

  // Follow picks made elsewhere, unless the draft already says the same instruction.
  useEffect(() => {
    setDraft((d) => {
      const parsed = parseInstruction(d);
      return parsed.ok && parsed.form.text === instr ? d : instr;
    });
  }, [instr]);

  const parsed = parseInstruction(draft);
  const onChange = (text: string) => {
    setDraft(text);
    const p = parseInstruction(text);
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
