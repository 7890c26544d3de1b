/**
 * One `ptxf batch` line for cvt: `{"instr": "cvt.rn.satfinite.e4m3x2.f32", "a": "0x43fa0000",
 * "b": "0x40880000"}` → `{"ok": true, "d": "0x7e48"}`. The operands are the spec's names (a, b,
 * e, f, rbits), each hex of its register's full width; d is hex of the destination register's
 * width. The same errors as the other forms; `oob` and `c` belong to the arithmetic.
 */
import { compileCvtFastBatch, evaluateCvt, type CvtRegisters } from '../engine/index.ts';
import { errorLine, verdictError, type BatchAnswer, type BatchCaches } from './batch-line.ts';
import type { QuickForm } from './batch-quick.ts';
import { cvtBatchVariantFields } from './cvt-compare.ts';
import { cvtHex, cvtSources, resolveCvtOperands, type CvtFormResult } from './cvt-request.ts';

export interface CvtLine {
  readonly id: unknown;
  readonly lineNo: number;
  readonly instr: string;
  readonly target: string | undefined;
  readonly ptx: string | undefined;
  readonly trace: boolean;
  readonly operands: Readonly<Record<string, string>>;
  readonly oob: readonly string[] | undefined;
  /** A cvt form to compare with on the same source values (cvt-compare.ts), if any. */
  readonly vs?: unknown;
}

export function answerCvtLine(line: CvtLine, caches: BatchCaches): BatchAnswer {
  const { id, lineNo } = line;
  const formResult = caches.cvtForm(line.instr, line.target, line.ptx);
  if (!formResult.ok) return errorLine(id, formResult.error.code, lineNo, formResult.error.message);
  const { form, verdict } = formResult;
  const defaulted = line.target === undefined && line.ptx === undefined;
  if (!verdict.valid) {
    const err = verdictError(verdict, defaulted);
    return errorLine(id, err.code, lineNo, err.message);
  }
  if (line.oob !== undefined && line.oob.length > 0)
    return errorLine(
      id,
      'operand',
      lineNo,
      `"oob" marks OOB-NaN tensor elements of fma.oob; ${form.text} has none`,
    );
  const resolved = resolveCvtOperands(form, line.operands);
  if (!resolved.ok) return errorLine(id, resolved.error.code, lineNo, resolved.error.message);
  const width = form.operands[0]!.bits;
  const idJson = JSON.stringify(id ?? null);
  // With "vs": B's fields beside the line's own answer, which stands either way.
  const vs =
    line.vs === undefined
      ? ''
      : cvtBatchVariantFields(form, resolved.input, line.vs, lineNo, (variant) => {
          const judged = caches.cvtForm(variant.text, line.target, line.ptx);
          if (!judged.ok) return judged.error;
          return judged.verdict.valid ? null : verdictError(judged.verdict, defaulted);
        });
  if (line.trace) {
    const result = evaluateCvt(form, resolved.input);
    const steps = JSON.stringify(result.elements.map((e) => e.steps));
    return {
      ok: true,
      json: `{"id":${idJson},"ok":true,"d":"${cvtHex(BigInt(result.d), width)}","steps":${steps}${vs}}`,
    };
  }
  const d = caches.cvtFastPath(form)(resolved.input);
  return { ok: true, json: `{"id":${idJson},"ok":true,"d":"${cvtHex(d, width)}"${vs}}` };
}

/**
 * The quick answer of a cvt line shape (batch-quick.ts): the verdict below, and the form's batch
 * fast path; null where the shape's lines get an error, or a register is wider than 32 bits or
 * not a whole number of hex digits.
 */
export function cvtQuickForm(formResult: CvtFormResult): QuickForm | null {
  if (!formResult.ok || !formResult.verdict.valid) return null;
  const { form } = formResult;
  const sources = cvtSources(form);
  const width = form.operands[0]!.bits;
  const plain = (bits: number) => bits <= 32 && bits % 4 === 0;
  if (!plain(width) || !sources.every((s) => plain(s.bits))) return null;
  const batch = compileCvtFastBatch(form);
  return {
    sources,
    width,
    evaluate: (regs, out, count) => {
      const registers: CvtRegisters = {};
      sources.forEach((s, i) => (registers[s.name] = regs[i]));
      batch(registers, out, count);
    },
  };
}
