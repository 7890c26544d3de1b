import type { Form } from '../../catalog/instruction.ts';
import { formLimit } from '../../state/form-choice.ts';
import {
  formChoiceText,
  formsOfShape,
  shapeOf,
  shapesOf,
  switchShape,
} from '../../state/matrix-choice.ts';
import { useStore } from '../../state/store.ts';

/**
 * A tensor-core form's pickers beside the opcode: its shape (with `.kind`), then its layouts and
 * types. A form the chosen target or PTX ISA version cannot run is marked with why, not hidden.
 * B's pickers in compare mode label themselves with `labelPrefix`.
 */
export default function MatrixPickers({
  form,
  onPick,
  primary,
  labelPrefix = '',
}: {
  form: Form;
  onPick: (text: string) => void;
  primary: boolean;
  labelPrefix?: string;
}) {
  const target = useStore((s) => s.target);
  const ptx = useStore((s) => s.ptx);
  const shape = shapeOf(form);
  const testId = (id: string) => (primary ? id : undefined);
  const shapeLimit = (s: string) => {
    const limits = formsOfShape(form.opcode, s).map((f) => formLimit(f, target, ptx));
    return limits.every((l) => l !== null) ? limits[0] : null;
  };
  return (
    <>
      <label>
        {labelPrefix}Shape
        <select
          value={shape}
          data-testid={testId('matrix-shape')}
          onChange={(e) => onPick(switchShape(form, e.target.value).text)}
        >
          {shapesOf(form.opcode).map((s) => {
            const limit = shapeLimit(s);
            return (
              <option key={s} value={s}>
                {s}
                {limit ? ` ✗ ${limit}` : ''}
              </option>
            );
          })}
        </select>
      </label>
      <label>
        {labelPrefix}Layouts and types
        <select
          value={form.text}
          data-testid={testId('matrix-form')}
          onChange={(e) => onPick(e.target.value)}
        >
          {formsOfShape(form.opcode, shape).map((f) => {
            const limit = formLimit(f, target, ptx);
            return (
              <option key={f.text} value={f.text}>
                {formChoiceText(f)}
                {limit ? ` ✗ ${limit}` : ''}
              </option>
            );
          })}
        </select>
      </label>
    </>
  );
}
