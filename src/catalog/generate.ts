/**
 * The one generator: every form of instruction.ts, from the records (record.ts). Each syntax
 * line gives one form per type it stands for and per choice of its modifier slots; a form is
 * its registers, the elements placed in them, its modifiers and rounding, and the rows of the
 * Target / PTX ISA Notes that apply to it, with the least target and PTX ISA version meeting them.
 */
import { isFormatName, type FormatName } from './formats.ts';
import type {
  BlockScaledKind,
  BlockScaleFacts,
  ElementSpec,
  Form,
  FormRequirement,
  FragmentRegisters,
  MatrixFacts,
  MatrixLayout,
  Place,
  Register,
  ScaleVectorSize,
} from './instruction.ts';
import {
  containerOf,
  elementsOfType,
  placeIn,
  registerBits,
  scalarPlace,
  vectorPlaces,
} from './layout.ts';
import {
  isMatrixShape,
  isRounding,
  shapeOf,
  type AnyModifier,
  type Rounding,
} from './modifiers.ts';
import { maxPtx, type PtxVersion } from './ptx-versions.ts';
import {
  conditionHolds,
  requirementApplies,
  typeParts,
  type InstructionRecord,
  type RecordRequirement,
  type RegisterContent,
  type RegisterLayout,
  type SyntaxLine,
} from './record.ts';
import { baselineTarget, findTarget, TARGETS, type Target } from './targets.ts';

/** A generated form with the record and the syntax line it comes from. */
export interface GeneratedForm {
  readonly form: Form;
  readonly record: InstructionRecord;
  readonly line: SyntaxLine;
}

/** A modifier position of a syntax line. */
interface ModifierSlot<M extends string> {
  readonly options: readonly M[];
  readonly optional: boolean;
}

/** Every combination a line allows: each optional slot absent or one of its options. */
export function* slotCombinations<M extends string>(
  slots: readonly ModifierSlot<M>[],
): Generator<M[]> {
  if (slots.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = slots as [ModifierSlot<M>, ...ModifierSlot<M>[]];
  const choices: (M | null)[] = [...(first.optional ? [null] : []), ...first.options];
  for (const choice of choices) {
    for (const tail of slotCombinations(rest)) yield choice === null ? tail : [choice, ...tail];
  }
}

/** The register names of an operand list: `d, {a, b, e, f}, rbits` → d a b e f rbits. */
function registerNames(operands: string): Register['name'][] {
  return (operands.match(/\w+/g) ?? []) as Register['name'][];
}

/** d holds the destination type, rbits random bits, every other source the source type. */
function contentOf(record: InstructionRecord, name: Register['name']): RegisterContent {
  return (
    record.layout.registers?.[name] ?? (name === 'd' ? 'dtype' : name === 'rbits' ? 'b32' : 'atype')
  );
}

function registersOf(record: InstructionRecord, line: SyntaxLine, type: string): Register[] {
  const parts = typeParts(type);
  return registerNames(line.operands).map((name) => {
    const content = contentOf(record, name);
    const registerType = content === 'b32' ? 'b32' : parts[content];
    return { name, bits: registerBits(registerType), type: registerType };
  });
}

/**
 * The elements: as many as the destination type holds. Where a source holds as many, element i
 * reads element i of every source (an x2 lane, a packed cvt source); where each source holds one
 * value (cvt.rn.satfinite.e4m3x2.f32 d, a, b), element i reads the i-th source.
 */
function elementsOf(
  record: InstructionRecord,
  registers: readonly Register[],
  modifiers: readonly AnyModifier[],
): ElementSpec[] {
  const order = record.layout.order;
  const dest = registers[0]!;
  const count = elementsOfType(dest.type).count;
  const sources = registers.slice(1).filter((r) => r.name !== 'rbits');
  const oneEach = sources.every((s) => elementsOfType(s.type).count !== count);
  const random = modifiers.includes('rs') ? record.layout.randomBits?.[dest.type] : undefined;
  if (modifiers.includes('rs') && !random) throw new Error(`no random bits for ${dest.type}`);
  return Array.from({ length: count }, (_, index) => {
    const inputs: Place[] = oneEach
      ? [placeIn(sources[index]!.name, sources[index]!.type, 0, 1, order)]
      : sources.map((s) => placeIn(s.name, s.type, index, count, order));
    return {
      index,
      dest: placeIn('d', dest.type, index, count, order),
      inputs,
      ...(random ? { rbits: random[index]! } : {}),
    };
  });
}

function formRequirement(r: RecordRequirement, opcode: string, type: string): FormRequirement {
  const subject =
    r.subject === 'feature'
      ? r.feature
      : r.subject === 'instruction'
        ? `${opcode}.${type}`
        : `modifier .${r.subject.modifier}`;
  return { feature: r.feature, subject, ptx: r.ptx, target: r.target };
}

/** The least target and PTX ISA version that meet every requirement. */
function minimum(requirements: readonly FormRequirement[]): { target: Target; ptx: PtxVersion } {
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

/** A matrix form's layouts (mma's .alayout, .blayout), or null (wgmma). */
type Layouts = { readonly a: MatrixLayout; readonly b: MatrixLayout } | null;

/**
 * The types of a matrix form's D, A, B and C, from its type as written (wgmma's C is D; a
 * block-scaled form's `.stype` after them is its scales', BlockScaleFacts).
 */
export function matrixTypes(type: string): MatrixFacts['types'] {
  const [d, a, b, c = d] = type.split('.');
  const names = [d, a, b, c];
  if (!names.every((n) => n !== undefined && isFormatName(n)))
    throw new Error(`not a matrix type: ${type}`);
  const [dt, at, bt, ct] = names as FormatName[];
  return { d: dt!, a: at!, b: bt!, c: ct! };
}

/** A form's shape among its modifiers. */
function shapeIn(modifiers: readonly AnyModifier[]): { m: number; n: number; k: number } {
  const shape = modifiers.find(isMatrixShape);
  if (!shape) throw new Error(`a matrix form without a shape: ${modifiers.join('.')}`);
  return shapeOf(shape);
}

/**
 * `rows × cols` elements spread evenly over `threads` threads, packed into registers: .f64 and
 * .f32 one each, every other type in .b32 registers of its containers.
 */
function fragment(
  rows: number,
  cols: number,
  threads: number,
  format: FormatName,
  layout: RegisterLayout,
): FragmentRegisters {
  const elements = (rows * cols) / threads;
  const type = format === 'f64' ? 'f64' : format === 'f32' ? 'f32' : 'b32';
  const registerBits = type === 'f64' ? 64 : 32;
  const container = containerOf(format, layout).bits;
  return { count: (elements * container) / registerBits, type, elements };
}

/** A line's register layout: the record's, without its containers on an unpadded line. */
function lineLayout(record: InstructionRecord, line: SyntaxLine): RegisterLayout {
  if (!line.matrix?.unpadded) return record.layout;
  const { containers: _padded, ...layout } = record.layout;
  return layout;
}

const KINDS = ['f8f6f4', 'mxf8f6f4', 'mxf4', 'mxf4nvf4'] as const;
/** Where `.scale_vec_size` is left out: 1X for mxf8f6f4, 2X for mxf4 (9.7.14.5.14). */
const DEFAULT_SCALE_VEC: Record<BlockScaledKind, ScaleVectorSize> = {
  mxf8f6f4: '1X',
  mxf4: '2X',
  mxf4nvf4: '2X',
};

/** A block-scaled form's scales, from its modifiers and the `.stype` it writes last. */
function blockScaleOf(
  type: string,
  modifiers: readonly AnyModifier[],
  kind: MatrixFacts['kind'],
): BlockScaleFacts | null {
  if (!modifiers.includes('block_scale') || kind === null || kind === 'f8f6f4') return null;
  const stype = type.split('.')[4];
  if (stype !== 'ue8m0' && stype !== 'ue4m3')
    throw new Error(`a block-scaled form without a scale type: ${type}`);
  const written = modifiers.find((m) => m.startsWith('scale_vec::'));
  const scaleVec = (written?.slice('scale_vec::'.length) ??
    DEFAULT_SCALE_VEC[kind]) as ScaleVectorSize;
  const chunks = ({ '1X': 1, '2X': 2, '4X': 4 } as const)[scaleVec];
  return { kind, scaleVec, stype, chunks };
}

function matrixFactsOf(
  record: InstructionRecord,
  line: SyntaxLine,
  type: string,
  modifiers: readonly AnyModifier[],
  layouts: Layouts,
): MatrixFacts {
  const m = record.matrix!;
  const types = matrixTypes(type);
  const shape = shapeIn(modifiers);
  const fewer = m.fewerThreads;
  const threads = fewer && conditionHolds(fewer.when, type, modifiers) ? fewer.threads : m.threads;
  const holds = (name: 'a' | 'b' | 'c' | 'd') => m.fragments.includes(name);
  const layout = lineLayout(record, line);
  const frag = (rows: number, cols: number, format: FormatName) =>
    fragment(rows, cols, threads, format, layout);
  const kind = KINDS.find((k) => modifiers.includes(`kind::${k}`)) ?? null;
  return {
    instruction: m.instruction,
    shape,
    layouts,
    kind,
    blockScale: blockScaleOf(type, modifiers, kind),
    types,
    threads,
    fragments: {
      a: frag(shape.m, shape.k, types.a),
      b: holds('b') ? frag(shape.k, shape.n, types.b) : null,
      c: holds('c') ? frag(shape.m, shape.n, types.c) : null,
      d: frag(shape.m, shape.n, types.d),
    },
    aSources: m.aSources,
    transpose: m.transposeTypes.includes(types.a),
  };
}

/**
 * A matrix form's registers and its one element d = c + Σ a_i·b_i: d and c hold one element
 * each, a A's row and b B's column, k elements each (`f16x16`).
 */
function matrixRegisters(
  layout: RegisterLayout,
  type: string,
  k: number,
  blockScale: BlockScaleFacts | null,
): { registers: Register[]; elements: ElementSpec[] } {
  const types = matrixTypes(type);
  const scalar = (name: 'd' | 'c', format: FormatName): Register => ({
    name,
    bits: containerOf(format, layout).bits,
    type: format,
  });
  const vector = (name: 'a' | 'b', format: FormatName): Register => ({
    name,
    bits: containerOf(format, layout).bits * k,
    type: `${format}x${k}`,
  });
  // A block-scaled form's scales of the row and of the column: one per chunk (Table 35).
  const scales = (name: 'scale_a' | 'scale_b', s: BlockScaleFacts): Register => ({
    name,
    bits: containerOf(s.stype, layout).bits * s.chunks,
    type: `${s.stype}x${s.chunks}`,
  });
  const registers = [
    scalar('d', types.d),
    vector('a', types.a),
    vector('b', types.b),
    scalar('c', types.c),
    ...(blockScale ? [scales('scale_a', blockScale), scales('scale_b', blockScale)] : []),
  ];
  const inputs: Place[] = [
    ...vectorPlaces('a', types.a, k, layout),
    ...vectorPlaces('b', types.b, k, layout),
    scalarPlace('c', types.c, layout),
    ...(blockScale
      ? [
          ...vectorPlaces('scale_a', blockScale.stype, blockScale.chunks, layout),
          ...vectorPlaces('scale_b', blockScale.stype, blockScale.chunks, layout),
        ]
      : []),
  ];
  return {
    registers,
    elements: [{ index: 0, dest: scalarPlace('d', types.d, layout), inputs }],
  };
}

/**
 * How a form is written: the opcode, each written modifier in its slot's place, and a matrix
 * line's layouts and types where the line puts them (else the type last).
 */
function textOf(
  record: InstructionRecord,
  line: SyntaxLine,
  type: string,
  modifiers: readonly AnyModifier[],
  layouts: Layouts,
): string {
  const at = line.matrix;
  if (!at) return [record.opcode, ...modifiers, type].join('.');
  const slotOf = (m: AnyModifier) => line.slots.findIndex((s) => s.options.includes(m));
  const parts: string[] = [record.opcode];
  for (let i = 0; i <= line.slots.length; i++) {
    if (i === at.layoutsAt && layouts) parts.push(layouts.a, layouts.b);
    if (i === at.typesAt) parts.push(type);
    parts.push(...modifiers.filter((m) => slotOf(m) === i));
  }
  return parts.join('.');
}

/** The layouts a matrix line allows (one null for a line without). */
function layoutChoices(line: SyntaxLine): Layouts[] {
  const l = line.matrix?.layouts;
  if (!l) return [null];
  return l.a.flatMap((a) => l.b.map((b) => ({ a, b })));
}

function formOf(
  record: InstructionRecord,
  line: SyntaxLine,
  type: string,
  modifiers: readonly AnyModifier[],
  layouts: Layouts = null,
): Form {
  const requirements = record.requirements
    .filter((r) => requirementApplies(r, type, modifiers))
    .map((r) => formRequirement(r, record.opcode, type));
  const { target, ptx } = minimum(requirements);
  const written = modifiers.find(isRounding);
  const fallback: Rounding | undefined = line.slots.find((s) => s.default !== undefined)?.default;
  const matrix = record.matrix ? matrixFactsOf(record, line, type, modifiers, layouts) : undefined;
  const { registers, elements } = matrix
    ? matrixRegisters(lineLayout(record, line), type, matrix.shape.k, matrix.blockScale)
    : (() => {
        const r = registersOf(record, line, type);
        return { registers: r, elements: elementsOf(record, r, modifiers) };
      })();
  const cornerCases = record.cornerCases
    ?.filter((t) => t.types.includes(type))
    .map((t) => ({ title: t.title, rows: t.rows }));
  const bound = record.errorBounds?.find((b) => b.types.includes(type));
  return {
    text: textOf(record, line, type, modifiers, layouts),
    opcode: record.opcode,
    operation: record.operation,
    family: record.family,
    type,
    modifiers,
    rounding: written ?? fallback ?? null,
    section: record.section,
    syntax: line.text,
    registers,
    elements,
    requirements,
    minTarget: target.name,
    minPtx: ptx,
    documented: line.origin !== 'ptxas',
    ...(cornerCases && cornerCases.length > 0 ? { cornerCases } : {}),
    ...(bound ? { errorBound: { kind: bound.kind, log2: bound.log2, text: bound.text } } : {}),
    ...(matrix ? { matrix } : {}),
  };
}

/**
 * Every form of the records, in the order of records, lines, types and slot choices; a form
 * two lines both allow is the first line's.
 */
export function generateForms(records: readonly InstructionRecord[]): GeneratedForm[] {
  const seen = new Map<string, GeneratedForm>();
  for (const record of records) {
    for (const line of record.lines) {
      for (const type of line.types) {
        for (const modifiers of slotCombinations(line.slots)) {
          for (const layouts of layoutChoices(line)) {
            const text = textOf(record, line, type, modifiers, layouts);
            if (seen.has(text)) continue;
            seen.set(text, { form: formOf(record, line, type, modifiers, layouts), record, line });
          }
        }
      }
    }
  }
  return [...seen.values()];
}
