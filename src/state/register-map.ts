import type { SourceName } from '../catalog/instruction.ts';

/**
 * The one register map of the page: every source register by the spec's name, an unsigned
 * BigInt of the register's width (exact at .f64's 64 bits). Only the registers the current form
 * has mean anything; the others keep what they held, so a form that comes back finds them.
 * What reads and writes them by the catalog's places is registers.ts; this module is the map
 * alone, for the store's first state.
 */
export type Registers = Readonly<Record<SourceName, bigint>>;

/**
 * Every source register a form of the catalog may have, in the order a link's notices name them.
 */
export const SOURCE_NAMES: readonly SourceName[] = [
  'a',
  'b',
  'c',
  'e',
  'f',
  'rbits',
  'scale_a',
  'scale_b',
];

export const ZERO_REGISTERS: Registers = {
  a: 0n,
  b: 0n,
  c: 0n,
  e: 0n,
  f: 0n,
  rbits: 0n,
  scale_a: 0n,
  scale_b: 0n,
};
