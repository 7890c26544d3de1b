/**
 * Every float-to-float `cvt` form, generated from the syntax lines of cvt-instructions.ts: its
 * modifiers, operands with their register widths, the register layout element by element (in
 * the order of the Semantics block: `a` in the upper bits) and the requirements that apply.
 */
import {
  CVT_RECORD,
  type CvtRecord,
  type CvtRequirement,
  type CvtSyntaxLine,
} from './cvt-instructions.ts';
import {
  CVT_MODIFIERS,
  elementsOf,
  isCvtRounding,
  registerBits,
  slotBits,
  valueBits,
  type CvtModifier,
  type CvtRounding,
  type CvtType,
  type ElementFormatName,
} from './cvt-types.ts';
import { slotCombinations } from './forms.ts';
import { comparePtx, maxPtx, type PtxVersion } from './ptx-versions.ts';
import { baselineTarget, findTarget, TARGETS, type Target } from './targets.ts';

export type CvtOperandName = 'd' | 'a' | 'b' | 'e' | 'f' | 'rbits';
export type CvtSourceName = Exclude<CvtOperandName, 'd'>;

export interface CvtOperand {
  readonly name: CvtOperandName;
  /** Register width: .b8, .b16, .b32, .f32 (32) or .f64 (64). */
  readonly bits: 8 | 16 | 32 | 64;
  /** The type the register holds (rbits: random bits, .b32). */
  readonly type: CvtType | 'b32';
}

/** Bits hi…lo of a register, inclusive. */
export interface BitRange {
  readonly hi: number;
  readonly lo: number;
}

/** Where one value sits in a register: its slot, and the value's own bits within it. */
export interface ElementPlace {
  readonly operand: CvtOperandName;
  /** The element's bits; those outside `value` are zero padding (e2m3 in 8 bits, tf32's tail). */
  readonly slot: BitRange;
  readonly value: BitRange;
  readonly format: ElementFormatName;
}

/** One `d[..] = convert(x)` of the Semantics block. */
export interface CvtElement {
  /** 0 is the first line of the Semantics block: the upper bits of d, converted from a. */
  readonly index: number;
  readonly dest: ElementPlace;
  readonly source: ElementPlace;
  /** .rs: the bits of rbits this element's random bits come from (decision cvt-rs-rbits). */
  readonly rbits?: BitRange;
}

export interface CvtForm {
  /** Canonical PTX text of the instruction (no operands): `cvt.rn.satfinite.e4m3x2.f32`. */
  readonly text: string;
  readonly opcode: 'cvt';
  readonly dtype: CvtType;
  readonly atype: CvtType;
  /** Modifiers in the order of the syntax line. */
  readonly modifiers: readonly CvtModifier[];
  readonly record: CvtRecord;
  readonly line: CvtSyntaxLine;
  readonly operands: readonly CvtOperand[];
  readonly elements: readonly CvtElement[];
  readonly requirements: readonly CvtRequirement[];
  /** Least target and PTX ISA version at which the form is valid. */
  readonly minTarget: string;
  readonly minPtx: PtxVersion;
  /**
   * The rounding in effect: the written one, or the line's default (.rn between f16 and bf16);
   * null where the conversion is exact (widening) or the same type without integer rounding.
   */
  readonly rounding: CvtRounding | null;
  /**
   * Whether a syntax line of the spec lists the form; false for the two forms only ptxas
   * assembles (cvt.rn.satfinite{.relu}.e2m1x2.f16x2), flagged UNDOCUMENTED_FORM_FLAG.
   */
  readonly documented: boolean;
}

const SOURCES_X4: readonly CvtSourceName[] = ['a', 'b', 'e', 'f'];

function operandsOf(line: CvtSyntaxLine): CvtOperand[] {
  const d: CvtOperand = { name: 'd', bits: registerBits(line.dtype), type: line.dtype };
  const single = (name: CvtSourceName): CvtOperand => ({
    name,
    bits: registerBits(line.atype),
    type: line.atype,
  });
  const rbits: CvtOperand = { name: 'rbits', bits: 32, type: 'b32' };
  switch (line.operands) {
    case 'd, a':
      return [d, single('a')];
    case 'd, a, b':
      return [d, single('a'), single('b')];
    case 'd, a, b, rbits':
      return [d, single('a'), single('b'), rbits];
    case 'd, {a, b, e, f}, rbits':
      return [d, ...SOURCES_X4.map(single), rbits];
  }
}

/** The place of element `index` of `count` (index 0 in the upper bits) of a register of `type`. */
function placeIn(
  operand: CvtOperandName,
  type: CvtType,
  index: number,
  count: number,
): ElementPlace {
  const { format } = elementsOf(type);
  const width = count === 1 ? registerBits(type) : slotBits(format);
  const lo = (count - 1 - index) * width;
  const slot = { hi: lo + width - 1, lo };
  const bits = valueBits(format);
  // A 6-bit value sits in the low bits of its 8-bit slot; tf32's 19 bits in the upper bits of
  // its .b32 (decision cvt-tf32-layout).
  const value =
    format === 'tf32' ? { hi: slot.hi, lo: slot.hi - bits + 1 } : { hi: slot.lo + bits - 1, lo };
  return { operand, slot, value, format };
}

/**
 * The random bits of each element under .rs (decision cvt-rs-rbits): .f16x2 the 13 low bits of
 * each half (a the upper half), .bf16x2 each half, the 8-bit/6-bit x4 forms one byte each (a
 * the top byte), .e2m1x4 the upper bytes of the two halves for a and b, the lower ones for e, f.
 */
function rbitsOf(dtype: CvtType, index: number): BitRange {
  switch (dtype) {
    case 'f16x2':
      return index === 0 ? { hi: 28, lo: 16 } : { hi: 12, lo: 0 };
    case 'bf16x2':
      return index === 0 ? { hi: 31, lo: 16 } : { hi: 15, lo: 0 };
    case 'e2m1x4':
      return [
        { hi: 31, lo: 24 },
        { hi: 15, lo: 8 },
        { hi: 23, lo: 16 },
        { hi: 7, lo: 0 },
      ][index]!;
    default:
      return { hi: 31 - 8 * index, lo: 24 - 8 * index };
  }
}

function elementsOfLine(line: CvtSyntaxLine, rs: boolean): CvtElement[] {
  const dest = elementsOf(line.dtype);
  const source = elementsOf(line.atype);
  return Array.from({ length: dest.count }, (_, index) => {
    const sourcePlace =
      source.count === dest.count
        ? placeIn('a', line.atype, index, source.count)
        : placeIn(dest.count === 1 ? 'a' : SOURCES_X4[index]!, line.atype, 0, 1);
    return {
      index,
      dest: placeIn('d', line.dtype, index, dest.count),
      source: sourcePlace,
      ...(rs ? { rbits: rbitsOf(line.dtype, index) } : {}),
    };
  });
}

/** The least target and PTX ISA version that meet every requirement. */
function minimum(requirements: readonly CvtRequirement[]): { target: Target; ptx: PtxVersion } {
  let sm = 0;
  let ptx: PtxVersion = '4.2';
  const only: string[][] = [];
  for (const r of requirements) {
    ptx = maxPtx([ptx, r.ptx]);
    if (r.target.kind === 'baseline') sm = Math.max(sm, r.target.sm);
    if (r.target.kind === 'only') only.push([...r.target.targets]);
  }
  // "Either" rows: the option with the lowest target (e4m3x2: sm_89 with PTX ISA 8.1).
  for (const r of requirements) {
    if (r.target.kind !== 'either') continue;
    const best = [...r.target.options].sort((x, y) => x.sm - y.sm)[0]!;
    sm = Math.max(sm, best.sm);
    ptx = maxPtx([ptx, best.ptx]);
  }
  if (only.length > 0) {
    // The first listed architecture that every list names and that meets the baseline.
    const name = only[0]!.find(
      (t) => only.every((list) => list.includes(t)) && findTarget(t)!.number >= sm,
    );
    const target = findTarget(name!)!;
    return { target, ptx: maxPtx([ptx, target.minPtx]) };
  }
  const target = sm === 0 ? TARGETS[0]! : baselineTarget(sm);
  return { target, ptx: maxPtx([ptx, target.minPtx]) };
}

function buildForms(record: CvtRecord): CvtForm[] {
  const seen = new Map<string, CvtForm>();
  for (const line of record.lines) {
    for (const modifiers of slotCombinations(line.slots)) {
      const text = ['cvt', ...modifiers, line.dtype, line.atype].join('.');
      if (seen.has(text)) continue;
      const facts = { dtype: line.dtype, atype: line.atype, modifiers };
      const requirements = record.requirements.filter((r) => r.applies(facts));
      const { target, ptx } = minimum(requirements);
      const written = modifiers.find(isCvtRounding);
      const fallback = line.slots.find((s) => s.default !== undefined)?.default;
      seen.set(text, {
        text,
        opcode: 'cvt',
        dtype: line.dtype,
        atype: line.atype,
        modifiers,
        record,
        line,
        operands: operandsOf(line),
        elements: elementsOfLine(line, modifiers.includes('rs')),
        requirements,
        minTarget: target.name,
        minPtx: ptx,
        rounding: written ?? (fallback && isCvtRounding(fallback) ? fallback : null),
        documented: line.origin !== 'ptxas',
      });
    }
  }
  return [...seen.values()];
}

/** Every float-to-float cvt form of the spec's syntax lines (as ptxas 13.0 reads them). */
export const CVT_FORMS: readonly CvtForm[] = buildForms(CVT_RECORD);

const cvtFormsByText = new Map(CVT_FORMS.map((f) => [f.text, f]));

export function findCvtForm(text: string): CvtForm | undefined {
  return cvtFormsByText.get(text);
}

/** The (dtype, atype) pairs cvt converts between, in catalog order. */
export function cvtTypePairs(): { dtype: CvtType; atype: CvtType }[] {
  const pairs = new Map<string, { dtype: CvtType; atype: CvtType }>();
  for (const f of CVT_FORMS) pairs.set(`${f.dtype}.${f.atype}`, { dtype: f.dtype, atype: f.atype });
  return [...pairs.values()];
}

/** The modifiers in the catalog's order (for listing them). */
export function sortCvtModifiers(ms: Iterable<string>): string[] {
  return [...ms].sort(
    (x, y) => CVT_MODIFIERS.indexOf(x as CvtModifier) - CVT_MODIFIERS.indexOf(y as CvtModifier),
  );
}

/** Whether a PTX ISA version is at least `v`. */
export const ptxAtLeast = (ptx: PtxVersion, v: PtxVersion) => comparePtx(ptx, v) >= 0;
