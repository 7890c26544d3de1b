/**
 * Every form of the catalog in the one instruction model (instruction.ts): the half- and
 * mixed-precision arithmetic generated from instructions.ts and the conversions generated from
 * cvt-instructions.ts, each written as registers, elements, modifiers, rounding and the rows of
 * the Target / PTX ISA Notes that apply to it.
 */
import { CVT_FORMS, type CvtForm } from './cvt-forms.ts';
import { FORMS as ARITHMETIC_FORMS, type Form as ArithmeticForm } from './forms.ts';
import type { FormatName } from './formats.ts';
import type {
  BitRange,
  ElementSpec,
  Form,
  FormRequirement,
  Place,
  Register,
  RegisterName,
  SpecSection,
} from './instruction.ts';
import type { AnyModifier } from './modifiers.ts';

function fullRange(bits: number): BitRange {
  return { hi: bits - 1, lo: 0 };
}

/**
 * An arithmetic form: x2 forms compute two elements, lane 0 in bits 15…0 of every register
 * ("forms input vectors by half word values from source operands"); the others one element in
 * the whole register. The mixed forms read their .f16/.bf16 a and b and their .f32 c as they are.
 */
function fromArithmetic(old: ArithmeticForm): Form {
  const registers: Register[] = old.operands.map((o) => ({
    name: o.name,
    bits: o.bits,
    type: o.lanes === 2 ? `${o.format}x2` : o.format,
  }));
  const lanes = Math.max(...old.operands.map((o) => o.lanes));
  const place = (name: RegisterName, lane: number): Place => {
    const o = old.operands.find((x) => x.name === name)!;
    const range = o.lanes === 2 ? { hi: 16 * lane + 15, lo: 16 * lane } : fullRange(o.bits);
    return { operand: name, slot: range, value: range, format: o.format };
  };
  const elements: ElementSpec[] = Array.from({ length: lanes }, (_, lane) => ({
    index: lane,
    dest: place('d', lane),
    inputs: old.operands.slice(1).map((o) => place(o.name, lane)),
  }));
  const requirements: FormRequirement[] = old.requirements.map((r) => ({
    feature: r.feature,
    subject: r.modifier ? `modifier .${r.modifier}` : `${old.opcode}.${old.type}`,
    ptx: r.ptx,
    target: { kind: 'baseline', sm: r.sm },
  }));
  const record = old.record;
  const section: SpecSection = {
    section: record.section,
    title: record.title,
    anchor: record.anchor,
    semantics: record.semantics,
    notes: record.notes,
  };
  const corner = record.cornerCases?.filter((t) => t.types.includes(old.type));
  const bound = record.errorBounds?.find((b) => b.types.includes(old.type));
  return {
    text: old.text,
    opcode: old.opcode,
    operation: old.opcode,
    family: record.family,
    type: old.type,
    modifiers: old.modifiers as readonly AnyModifier[],
    rounding: old.rounding,
    section,
    syntax: old.line.text,
    registers,
    elements,
    requirements,
    minTarget: old.minTarget,
    minPtx: old.minPtx,
    documented: old.documented,
    ...(corner && corner.length > 0
      ? { cornerCases: corner.map((t) => ({ title: t.title, rows: t.rows })) }
      : {}),
    ...(bound ? { errorBound: { kind: bound.kind, log2: bound.log2, text: bound.text } } : {}),
  };
}

/** A cvt form: each line of its Semantics block is an element with one input. */
function fromCvt(old: CvtForm): Form {
  const place = (p: CvtForm['elements'][number]['dest']): Place => ({
    operand: p.operand,
    slot: p.slot,
    value: p.value,
    format: p.format as FormatName,
  });
  return {
    text: old.text,
    opcode: 'cvt',
    operation: 'convert',
    family: 'convert',
    type: `${old.dtype}.${old.atype}`,
    modifiers: old.modifiers as readonly AnyModifier[],
    rounding: old.rounding,
    section: {
      section: old.record.section,
      title: old.record.title,
      anchor: old.record.anchor,
      semantics: old.record.semantics,
      notes: old.record.notes,
    },
    syntax: old.line.text,
    registers: old.operands.map((o) => ({ name: o.name, bits: o.bits, type: o.type })),
    elements: old.elements.map((e) => ({
      index: e.index,
      dest: place(e.dest),
      inputs: [place(e.source)],
      ...(e.rbits ? { rbits: e.rbits } : {}),
    })),
    requirements: old.requirements.map((r) => ({
      feature: r.feature,
      subject: r.feature,
      ptx: r.ptx,
      target: r.target,
    })),
    minTarget: old.minTarget,
    minPtx: old.minPtx,
    documented: old.documented,
  };
}

/** Every form: the arithmetic's, then the conversions'. */
export const FORMS: readonly Form[] = [
  ...ARITHMETIC_FORMS.map(fromArithmetic),
  ...CVT_FORMS.map(fromCvt),
];

const byText = new Map(FORMS.map((f) => [f.text, f]));

export function findForm(text: string): Form | undefined {
  return byText.get(text);
}
