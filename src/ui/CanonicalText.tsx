import { useAnyForm } from '../state/any-form.ts';
import { CopyButton } from './CopyButton.tsx';

/** The canonical PTX line of the current form, ready to paste into a kernel. */
export function CanonicalText() {
  const form = useAnyForm();
  // cvt's operand list is its syntax line's (`d, {a, b, e, f}, rbits` for the x4 forms).
  const operands =
    form.opcode === 'cvt' ? form.line.operands : form.operands.map((o) => o.name).join(', ');
  const line = `${form.text} ${operands};`;
  return (
    <div className="canonical">
      <code className="mono" data-testid="canonical">
        {line}
      </code>
      <CopyButton text={() => line} label="Copy PTX" testId="copy-ptx" />
      <a href={form.record.anchor} target="_blank" rel="noreferrer">
        PTX ISA §{form.record.section}
      </a>
    </div>
  );
}
