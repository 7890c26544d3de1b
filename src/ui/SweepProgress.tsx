/**
 * A sweep under way: its progress bar, the percentage done and a cancel button. The bar and the
 * button take the test ids `${testIdPrefix}-progress` and `${testIdPrefix}-cancel`.
 */
export function SweepProgress({
  label,
  done,
  total,
  cancel,
  testIdPrefix,
}: {
  label: string;
  done: number;
  total: number;
  cancel: () => void;
  testIdPrefix: string;
}) {
  return (
    <div className="approx-progress">
      <label>
        {label}
        <progress max={total} value={done} data-testid={`${testIdPrefix}-progress`} />
      </label>
      <span aria-hidden="true">{Math.round((100 * done) / total)} %</span>
      <button type="button" onClick={cancel} data-testid={`${testIdPrefix}-cancel`}>
        Cancel
      </button>
    </div>
  );
}
