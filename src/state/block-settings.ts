/**
 * The block panel's settings (issue 26): the block of binary32 values, the scheme, the scale
 * rule, NVFP4's tensorAmax, the .rs random bits, and the column block that goes into the
 * block-scaled dot product beside it. In a share link with `tab=block`:
 *
 *   `scheme=mxfp4&rule=ocp&block=0x3dcccccd,0x40000000,…` and optionally `column=…` (the column
 *   block; absent: the same block), `tamax=0x…` (NVFP4 only) and `rs=0x80ff7f01,…` (the element
 *   conversions by cvt.rs with these random bits; absent: cvt.rn).
 *
 * Values and tensorAmax are read by the one rule for operand text (engine/register-text.ts:
 * `0x…`/`0b…` are binary32 bits, anything else a value rounded to binary32 to nearest even);
 * random bits are bits only. The app writes bits. url-codec.ts calls these; the settings and
 * their default are block-state.ts's.
 */
import {
  BLOCK_SCHEMES,
  SCHEMES,
  isBlockScheme,
  isScaleRule,
  type BlockScheme,
} from '../engine/block-scale/schemes.ts'; // not index.ts: the page's first load needs the table only
import { readPrefixedBits } from '../engine/bits-text.ts';
import { FORMATS } from '../engine/format.ts';
import { quoteText } from '../engine/number-text.ts';
import { readElementText } from '../engine/register-text.ts';
import { DEFAULT_BLOCK_SETTINGS, type BlockSettings } from './block-state.ts';

export function blockSizeOf(scheme: BlockScheme): 16 | 32 {
  return SCHEMES[scheme].blockSize;
}

/**
 * The settings under another scheme: its first rule where the old rule is not one of its own,
 * and the blocks cut to 16 or padded with +0 to 32 (`resized` says so).
 */
export function withScheme(
  s: BlockSettings,
  scheme: BlockScheme,
): { settings: BlockSettings; resized: 'cut' | 'padded' | null } {
  const size = blockSizeOf(scheme);
  const fit = (v: readonly number[]) =>
    v.length >= size ? v.slice(0, size) : [...v, ...Array<number>(size - v.length).fill(0)];
  const resized = s.values.length > size ? 'cut' : s.values.length < size ? 'padded' : null;
  const rules = SCHEMES[scheme].rules;
  return {
    settings: {
      ...s,
      scheme,
      rule: rules.includes(s.rule) ? s.rule : rules[0]!,
      values: fit(s.values),
      column: s.column ? fit(s.column) : null,
      tensorAmax: scheme === 'nvfp4' ? s.tensorAmax : null,
    },
    resized,
  };
}

/** One item of a typed list that could not be read, by its place (1-based) in the list. */
export interface ListItemError {
  readonly item: number;
  readonly text: string;
  readonly message: string;
}

export type ListRead =
  | { readonly ok: true; readonly bits: readonly number[]; readonly rounded: readonly number[] }
  | { readonly ok: false; readonly errors: readonly ListItemError[]; readonly count: number };

/** The items of a typed list: separated by commas, spaces, tabs or line breaks. */
export function listItems(text: string): string[] {
  return text.split(/[\s,;]+/).filter((t) => t !== '');
}

/**
 * A typed block: each item binary32 bits or a value by the one operand rule; every item that
 * cannot be read is named with its place. `rounded`: the items (0-based) whose value is not
 * exactly a binary32 value and was rounded.
 */
export function readValueList(text: string): ListRead {
  const items = listItems(text);
  const bits: number[] = [];
  const rounded: number[] = [];
  const errors: ListItemError[] = [];
  items.forEach((item, i) => {
    const r = readElementText(item, FORMATS.f32);
    if (!r.ok) errors.push({ item: i + 1, text: item, message: r.error.message });
    else {
      bits.push(Number(r.bits));
      if (r.written === 'value' && !r.value.exact) rounded.push(i);
    }
  });
  return errors.length > 0
    ? { ok: false, errors, count: items.length }
    : { ok: true, bits, rounded };
}

/** Random-bit words: bits only, 32 of them at most each. */
export function readRbitsList(text: string): ListRead {
  const items = listItems(text);
  const bits: number[] = [];
  const errors: ListItemError[] = [];
  items.forEach((item, i) => {
    const r = readPrefixedBits(item, 32, 'register');
    if (r === null)
      errors.push({
        item: i + 1,
        text: item,
        message: `${quoteText(item)} is not a bit pattern; random bits are bits (0x80ff7f01)`,
      });
    else if (!r.ok) errors.push({ item: i + 1, text: item, message: r.error.message });
    else bits.push(Number(r.bits));
  });
  return errors.length > 0
    ? { ok: false, errors, count: items.length }
    : { ok: true, bits, rounded: [] };
}

/** `0x3dcccccd`. */
export function f32HexOf(bits: number): string {
  return `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;
}

/** The parameters these settings use in a link. */
export const BLOCK_URL_KEYS: readonly string[] = [
  'scheme',
  'rule',
  'block',
  'column',
  'tamax',
  'rs',
];

/** The longest `block`/`column` a link may hold: 32 values typed with up to 24 characters. */
export const BLOCK_PARAM_MAX_LENGTH = 32 * 25;

interface Notes {
  readonly ignored: string[];
}

const listText = (bits: readonly number[]) => bits.map(f32HexOf).join(',');

/** The link's parameters for the settings (bits, the lists comma-separated). */
export function writeBlockSettings(s: BlockSettings): [string, string][] {
  const parts: [string, string][] = [
    ['scheme', s.scheme],
    ['rule', s.rule],
    ['block', listText(s.values)],
  ];
  if (s.column) parts.push(['column', listText(s.column)]);
  if (s.scheme === 'nvfp4' && s.tensorAmax !== null) parts.push(['tamax', f32HexOf(s.tensorAmax)]);
  if (s.rbits) parts.push(['rs', listText(s.rbits)]);
  return parts;
}

function firstError(errors: readonly ListItemError[]): string {
  const e = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `item ${e.item} ${quoteText(e.text)}: ${e.message}${more}`;
}

/**
 * The settings a link holds with `tab=block`: what is absent or cannot be used is the default
 * (the sample block, mxfp4, its first rule), and each part that cannot be used is named.
 */
export function readBlockSettings(
  params: ReadonlyMap<string, string>,
  notes: Notes,
): BlockSettings {
  let scheme = DEFAULT_BLOCK_SETTINGS.scheme;
  const schemeText = params.get('scheme');
  if (schemeText !== undefined) {
    if (isBlockScheme(schemeText)) scheme = schemeText;
    else
      notes.ignored.push(
        `scheme ${quoteText(schemeText)} is not a block scheme (expected ${BLOCK_SCHEMES.join(', ')}); using ${scheme}`,
      );
  }
  const size = blockSizeOf(scheme);
  const rules = SCHEMES[scheme].rules;
  let rule = rules[0]!;
  const ruleText = params.get('rule');
  if (ruleText !== undefined) {
    if (isScaleRule(ruleText) && rules.includes(ruleText)) rule = ruleText;
    else
      notes.ignored.push(
        `rule ${quoteText(ruleText)} is not a scale rule of ${scheme} (expected ${rules.join(', ')}); using ${rule}`,
      );
  }
  const block = (key: 'block' | 'column'): number[] | null => {
    const text = params.get(key);
    if (text === undefined) return null;
    const read = readValueList(text);
    if (!read.ok) {
      notes.ignored.push(`${key}: ${firstError(read.errors)}; ignored it`);
      return null;
    }
    if (read.bits.length !== size) {
      notes.ignored.push(
        `${key} has ${read.bits.length} values; ${scheme} takes ${size}; ignored it`,
      );
      return null;
    }
    return [...read.bits];
  };
  const values = block('block') ?? withScheme(DEFAULT_BLOCK_SETTINGS, scheme).settings.values;
  const column = block('column');
  let tensorAmax: number | null = null;
  const tamax = params.get('tamax');
  if (tamax !== undefined) {
    const read = readValueList(tamax);
    if (scheme !== 'nvfp4')
      notes.ignored.push(`tamax ${quoteText(tamax)} is read with scheme=nvfp4; ignored it`);
    else if (!read.ok || read.bits.length !== 1)
      notes.ignored.push(
        `tamax ${quoteText(tamax)}: ${read.ok ? 'one value expected' : read.errors[0]!.message}; ignored it`,
      );
    else tensorAmax = read.bits[0]!;
  }
  let rbits: number[] | null = null;
  const rs = params.get('rs');
  if (rs !== undefined) {
    const read = readRbitsList(rs);
    const words = size / 4;
    if (!read.ok) notes.ignored.push(`rs: ${firstError(read.errors)}; ignored it`);
    else if (read.bits.length !== 1 && read.bits.length !== words)
      notes.ignored.push(
        `rs has ${read.bits.length} words; ${scheme} takes 1 or ${words} (one per cvt of four elements); ignored it`,
      );
    else rbits = [...read.bits];
  }
  return { scheme, rule, values, column, tensorAmax, rbits };
}
