import { describe, expect, it } from 'vitest';
import { FORMS } from './all-forms.ts';
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
} from './instruction.ts';
import type { AnyModifier } from './modifiers.ts';
import { CVT_RECORD, CVT_TYPE_TOKENS } from './records/convert.ts';
import { RECORDS } from './records/index.ts';
import { typeParts } from './record.ts';

/**
 * The generator against the forms the old generators (forms.ts, cvt-forms.ts) make, written in
 * the one model by the adapters below: the same forms in the same order, field by field. Delete
 * this test with the old generators.
 */

function fullRange(bits: number): BitRange {
  return { hi: bits - 1, lo: 0 };
}

/** An old arithmetic form: x2 lanes in 16-bit halves, lane 0 low; other operands whole. */
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
    section: {
      section: record.section,
      title: record.title,
      anchor: record.anchor,
      semantics: record.semantics,
      notes: record.notes,
    },
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

/** An old cvt form: each line of its Semantics block is an element with one input. */
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

const ADAPTED: readonly Form[] = [
  ...ARITHMETIC_FORMS.map(fromArithmetic),
  ...CVT_FORMS.map(fromCvt),
];

const FIELDS = [
  'text',
  'opcode',
  'operation',
  'family',
  'type',
  'modifiers',
  'rounding',
  'section',
  'syntax',
  'registers',
  'elements',
  'requirements',
  'minTarget',
  'minPtx',
  'documented',
  'cornerCases',
  'errorBound',
] as const satisfies readonly (keyof Form)[];

/** The arithmetic and cvt forms, which the old generators make (the matrix forms come after). */
const ELEMENTWISE = FORMS.filter((f) => f.family !== 'matrix');

describe('the generator', () => {
  it('makes the forms the old generators make, in their order', () => {
    expect(ELEMENTWISE.map((f) => f.text)).toEqual(ADAPTED.map((f) => f.text));
    expect(ELEMENTWISE).toHaveLength(234 + 223);
    expect(FORMS.slice(0, ELEMENTWISE.length)).toEqual(ELEMENTWISE);
  });

  it('gives every form the fields the adapters give it, field by field', () => {
    const differ: string[] = [];
    ELEMENTWISE.forEach((form, i) => {
      const adapted = ADAPTED[i]!;
      for (const field of FIELDS) {
        if (JSON.stringify(form[field]) !== JSON.stringify(adapted[field]))
          differ.push(`${form.text}.${field}`);
      }
      expect(Object.keys(form).sort(), form.text).toEqual(Object.keys(adapted).sort());
    });
    expect(differ).toEqual([]);
    for (const [i, form] of ELEMENTWISE.entries()) expect(form, form.text).toEqual(ADAPTED[i]);
  });
});

describe('the records', () => {
  it('write the syntax lines of every form, each with the operands of its text', () => {
    for (const record of RECORDS) {
      for (const line of record.lines) {
        expect(line.text, line.text).toContain(` ${line.operands};`);
        expect(line.types.length, line.text).toBeGreaterThan(0);
      }
    }
  });

  it('name in the cvt type grammar exactly the types the cvt lines use', () => {
    const used = new Set(
      CVT_RECORD.lines.flatMap((l) => l.types.flatMap((t) => Object.values(typeParts(t)))),
    );
    expect([...used].sort()).toEqual([...CVT_TYPE_TOKENS].sort());
  });
});
