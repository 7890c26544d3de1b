/** Helpers the records share to write their syntax lines and modifier slots. */
import { FORMAT_NAMES, isFormatName, type FormatName } from '../formats.ts';
import type { AnyModifier, Rounding } from '../modifiers.ts';
import type { Slot, SyntaxLine } from '../record.ts';

/** An optional slot `{.name}`: absent, or one of its options. */
export const opt = (name: string, ...options: AnyModifier[]): Slot => ({
  name,
  options,
  optional: true,
});

/** A mandatory slot `.name`: one of its options. */
export const req = (name: string, ...options: AnyModifier[]): Slot => ({
  name,
  options,
  optional: false,
});

/** An optional rounding slot and the rounding in effect when it is left out. */
export const optWithDefault = (name: string, fallback: Rounding, ...options: Rounding[]): Slot => ({
  ...opt(name, ...options),
  default: fallback,
});

/**
 * A syntax line as the spec prints it, with the types it stands for and its slots; its operands
 * are read from the text (what follows the name, up to the `;`).
 */
export function syntaxLine(
  text: string,
  types: readonly string[],
  slots: readonly Slot[],
  origin?: 'ptxas',
): SyntaxLine {
  const operands = /^\S+\s+([^;]*);/.exec(text)?.[1]?.trim();
  if (!operands) throw new Error(`syntax line without operands: ${text}`);
  return { text, types, slots, operands, ...(origin ? { origin } : {}) };
}

/**
 * The type tokens a matrix record's lines write (each role's type, a block-scaled form's
 * `.stype`), in the catalog's order of formats (formats.ts): what its grammar reads as types.
 */
export function typeTokensOf(lines: readonly SyntaxLine[]): FormatName[] {
  const written = new Set(lines.flatMap((l) => l.types.flatMap((type) => type.split('.'))));
  const unknown = [...written].filter((token) => !isFormatName(token));
  if (unknown.length > 0) throw new Error(`matrix types that are no format: ${unknown.join(', ')}`);
  return FORMAT_NAMES.filter((name) => written.has(name));
}
