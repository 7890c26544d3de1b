import { sourceOf } from '../catalog/all-forms.ts';
import { useForm } from '../state/form.ts';
import { CopyButton } from './CopyButton.tsx';

/** The canonical PTX line of the current form, ready to paste into a kernel. */
export function CanonicalText() {
  const form = useForm();
  // The operand list of its syntax line (`d, {a, b, e, f}, rbits` for cvt's x4 forms).
  const line = `${form.text} ${sourceOf(form).line.operands};`;
  return (
    <div className="canonical">
      <code className="mono" data-testid="canonical">
        {line}
      </code>
      <CopyButton text={() => line} label="Copy PTX" testId="copy-ptx" />
      <a href={form.section.anchor} target="_blank" rel="noreferrer">
        PTX ISA §{form.section.section}
      </a>
    </div>
  );
}
