/**
 * The quick answer of an untraced `ptxf batch` line: what a line shape — its instruction, target
 * and PTX ISA version — needs to answer a line whose operands are all register bits, prepared
 * once per shape (BatchCaches.quick) instead of on every line. batch-line.ts builds it from
 * what the full answer uses: the same validity verdict, the same destination width, and the
 * engine's batch fast path for the form (fast-path.ts, proven equal to the traced path), so a
 * quick answer is the full one, character for character.
 *
 * A quick answer is evaluated late: its registers wait with the other lines of its shape, and
 * the whole group goes through the batch fast path when the first answer of the group is read
 * (runBatchSummary reads a block of answers after answering the block), or when the group is
 * full. A caller that reads each answer at once gets the same text, one line per group.
 *
 * Only the plainest operand text is read here: `0x` and 1 to width/4 hex digits, which every
 * operand rule reads as exactly those bits. Anything else — a value, `0b…`, grouping, a missing
 * or extra operand — gives undefined, and the line takes the full path with its messages.
 */
import { OPERAND_FIELDS } from './batch-json.ts';
import { errorLine, type BatchAnswer } from './batch-answer.ts';
import type { RegisterBatch } from './fast-path.ts';

export interface QuickSource {
  readonly name: string;
  /** The register's width: at most 32 bits, a multiple of 4. */
  readonly bits: number;
}

export interface QuickForm {
  /** The source operands, in the order of the register arrays `evaluate` reads. */
  readonly sources: readonly QuickSource[];
  /** The destination register's width (at most 32 bits). */
  readonly width: number;
  /** out[k] = d of line k, for k < count, from regs[i][k], source i of line k. */
  readonly evaluate: RegisterBatch;
}

interface ShapeEntry {
  readonly target: string | undefined;
  readonly ptx: string | undefined;
  readonly quick: QuickShape | null;
}

/**
 * Quick answers by line shape, each prepared once by `prepare` (null: the shape's lines take the
 * full path). Found by the instruction text, then its target and PTX ISA version compared as
 * they are (no key to build per line). Bounded: cleared when it holds `limit` instructions, so a
 * long batch of ever new instruction texts stays in constant memory.
 */
export class QuickShapes {
  private readonly byInstr = new Map<string, ShapeEntry[]>();

  constructor(
    private readonly prepare: (
      instr: string,
      target: string | undefined,
      ptx: string | undefined,
    ) => QuickForm | null,
    private readonly limit: number,
  ) {}

  get(instr: string, target: string | undefined, ptx: string | undefined): QuickShape | null {
    let entries = this.byInstr.get(instr);
    if (entries === undefined) {
      if (this.byInstr.size >= this.limit) this.byInstr.clear();
      this.byInstr.set(instr, (entries = []));
    }
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.target === target && e.ptx === ptx) return e.quick;
    }
    const form = this.prepare(instr, target, ptx);
    const quick = form === null ? null : new QuickShape(form);
    // A few shapes per instruction at most in any real batch; the list is bounded all the same.
    if (entries.length >= this.limit) entries.length = 0;
    entries.push({ target, ptx, quick });
    return quick;
  }
}

/** Lines a group holds before it is evaluated whatever happens (the engine's chunk size). */
const GROUP_LIMIT = 4096;
/** A new group's room; doubled as it fills, up to GROUP_LIMIT. */
const GROUP_START = 64;

const X = 0x78;
/** Hex digit values by character code (-1: not a hex digit). */
const HEX = Int8Array.from({ length: 128 }, (_, c) =>
  c >= 0x30 && c <= 0x39
    ? c - 0x30
    : c >= 0x61 && c <= 0x66
      ? c - 0x57
      : c >= 0x41 && c <= 0x46
        ? c - 0x37
        : -1,
);

/** The bits of `0x` and 1 to bits/4 hex digits, or -1 for any other text. */
export function plainHexBits(text: string, bits: number): number {
  const n = text.length - 2;
  if (n < 1 || n > bits / 4 || text.charCodeAt(0) !== 0x30 || text.charCodeAt(1) !== X) return -1;
  let v = 0;
  for (let i = 2; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const d = c < 128 ? HEX[c]! : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Two hex digits of every byte. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * `0x` and the register's bits, as many hex digits as its width needs, as every answer writes
 * them; by bytes for 8, 16 and 32 bits (a quarter of the time of toString(16) and padStart).
 */
function registerText(d: number, width: number): string {
  const lo = BYTE_HEX[d & 0xff]!;
  if (width === 8) return `0x${lo}`;
  const mid = BYTE_HEX[(d >>> 8) & 0xff]!;
  if (width === 16) return `0x${mid}${lo}`;
  if (width === 32) return `0x${BYTE_HEX[d >>> 24]}${BYTE_HEX[(d >>> 16) & 0xff]}${mid}${lo}`;
  return `0x${(d >>> 0).toString(16).padStart(width / 4, '0')}`;
}

/** A line shape's quick form and the lines of that shape waiting to be evaluated. */
export class QuickShape {
  private regs: Uint32Array[];
  private out: Uint32Array;
  private readonly waiting: QuickAnswer[] = [];

  constructor(readonly form: QuickForm) {
    this.regs = form.sources.map(() => new Uint32Array(GROUP_START));
    this.out = new Uint32Array(GROUP_START);
  }

  /**
   * The answer of line `lineNo` with this `id` and these fields, or undefined when an operand is
   * not plain register bits, one is missing, or one the form does not take is given (null counts
   * as absent, as everywhere in a batch line).
   */
  answer(
    fields: Readonly<Record<string, unknown>>,
    id: unknown,
    lineNo: number,
  ): BatchAnswer | undefined {
    const sources = this.form.sources;
    let given = 0;
    for (let i = 0; i < OPERAND_FIELDS.length; i++) {
      const value = fields[OPERAND_FIELDS[i]!];
      if (value !== undefined && value !== null) given++;
    }
    if (given !== sources.length) return undefined;
    const k = this.waiting.length;
    if (k === this.out.length) this.grow();
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i]!;
      const text = fields[source.name];
      if (typeof text !== 'string') return undefined;
      const bits = plainHexBits(text, source.bits);
      if (bits < 0) return undefined;
      this.regs[i]![k] = bits;
    }
    const answer = new QuickAnswer(this, id, lineNo);
    this.waiting.push(answer);
    if (this.waiting.length === GROUP_LIMIT) this.evaluate();
    return answer;
  }

  /**
   * Every waiting line through the batch fast path at once; each answer gets its d. An exception
   * inside the engine (the fuzz suite shows none occurs) becomes each line's `internal` error, as
   * on the full path.
   */
  evaluate(): void {
    const count = this.waiting.length;
    if (count === 0) return;
    try {
      this.form.evaluate(this.regs, this.out, count);
      for (let k = 0; k < count; k++) this.waiting[k]!.d = this.out[k]!;
    } catch (e) {
      const failure = `engine failure: ${(e as Error)?.message ?? String(e)}`;
      for (let k = 0; k < count; k++) this.waiting[k]!.failure = failure;
    } finally {
      this.waiting.length = 0;
    }
  }

  text(d: number): string {
    return registerText(d, this.form.width);
  }

  private grow(): void {
    const size = this.out.length * 2;
    this.regs = this.regs.map((r) => {
      const bigger = new Uint32Array(size);
      bigger.set(r);
      return bigger;
    });
    this.out = new Uint32Array(size);
  }
}

/**
 * A quick answer: its d is set when its shape's group is evaluated — at the latest when `ok` or
 * `json` is read.
 */
export class QuickAnswer implements BatchAnswer {
  /** The destination register, or -1 until evaluated. */
  d = -1;
  /** The engine's exception message, where evaluating the group threw. */
  failure: string | null = null;

  constructor(
    private readonly shape: QuickShape,
    private readonly id: unknown,
    private readonly lineNo: number,
  ) {}

  private settle(): void {
    if (this.d < 0 && this.failure === null) this.shape.evaluate();
  }

  get ok(): boolean {
    this.settle();
    return this.failure === null;
  }

  get json(): string {
    this.settle();
    if (this.failure !== null)
      return errorLine(this.id, 'internal', this.lineNo, this.failure).json;
    return `{"id":${JSON.stringify(this.id ?? null)},"ok":true,"d":"${this.shape.text(this.d)}"}`;
  }
}
