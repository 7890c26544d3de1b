import { useForm } from '../state/store.ts';
import { CopyButton } from './CopyButton.tsx';

/** The canonical PTX line of the current form, ready to paste into a kernel. */
export function CanonicalText() {
  const form = useForm();
  const line = `${form.text} ${form.operands.map((o) => o.name).join(', ')};`;
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
