/**
 * One type in a picker's list: disabled, with why, where the opcode has no such form; marked ✗,
 * with why, where the target or PTX version rejects it.
 */
export function TypeOption({
  type,
  missing,
  limit,
}: {
  type: string;
  /** Why there is no such form, or null. */
  missing: string | null;
  /** Why the target or PTX version rejects it, or null. */
  limit: string | null;
}) {
  return (
    <option value={type} disabled={missing !== null}>
      .{type}
      {missing ? ` — ${missing}` : limit ? ` ✗ ${limit}` : ''}
    </option>
  );
}
