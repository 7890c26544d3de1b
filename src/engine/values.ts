/** A lane value as the arithmetic sees it: NaN, a signed infinity, or an exact finite value. */
import type { Value } from './value.ts';
import { decode, type AnyFloatFormat, dyadicOf } from './formats.ts';

export type { Value } from './value.ts';

export function valueOf(bits: number, f: AnyFloatFormat): Value {
  const d = decode(bits, f);
  if (d.class === 'qnan' || d.class === 'snan') return { kind: 'nan' };
  if (d.class === 'infinity') return { kind: 'inf', negative: d.negative };
  return { kind: 'finite', x: dyadicOf(bits, f) };
}

export function negateValue(v: Value): Value {
  if (v.kind === 'nan') return v;
  if (v.kind === 'inf') return { kind: 'inf', negative: !v.negative };
  return { kind: 'finite', x: { ...v.x, negative: !v.x.negative } };
}
