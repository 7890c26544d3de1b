import { describe, expect, it } from 'vitest';
import { checkAnyInstruction, parseAnyInstruction } from './any-instruction.ts';
import { CVT_FORMS, findCvtForm } from './cvt-forms.ts';
import { CVT_RECORD } from './cvt-instructions.ts';
import { parseCvtInstruction } from './cvt-parse.ts';
import { cvtVerdictFor } from './cvt-validate.ts';
import { findTarget } from './targets.ts';

const form = (text: string) => {
  const f = findCvtForm(text);
  if (!f) throw new Error(`no form ${text}`);
  return f;
};

/** `d[15:8] = convert(a);` lines of the Semantics block, per branch condition. */
function semanticsBranches(): {
  types: string[];
  writes: { hi: number; lo: number; from: string }[];
}[] {
  const branches: { types: string[]; writes: { hi: number; lo: number; from: string }[] }[] = [];
  for (const block of CVT_RECORD.semantics.split(/\n\}/)) {
    const types = [...block.matchAll(/\.(\w+x[24]|\w+)\b/g)].map((m) => m[1]!);
    const writes = [...block.matchAll(/d\[(\d+):(\d+)\]\s*=\s*convert\((\w)\)/g)].map((m) => ({
      hi: Number(m[1]),
      lo: Number(m[2]),
      from: m[3]!,
    }));
    if (writes.length > 0) branches.push({ types, writes });
  }
  return branches;
}

describe('cvt forms', () => {
  it('are generated from every syntax line, once each', () => {
    expect(CVT_FORMS).toHaveLength(223);
    expect(CVT_FORMS.filter((f) => !f.documented).map((f) => f.text)).toEqual([
      'cvt.rn.satfinite.e2m1x2.f16x2',
      'cvt.rn.satfinite.relu.e2m1x2.f16x2',
    ]);
    expect(new Set(CVT_FORMS.map((f) => f.text)).size).toBe(CVT_FORMS.length);
    for (const line of CVT_RECORD.lines)
      expect(
        CVT_FORMS.some((f) => f.dtype === line.dtype && f.atype === line.atype),
        line.text,
      ).toBe(true);
  });

  it('have the register widths of the Description', () => {
    const bits = (text: string) =>
      form(text)
        .operands.map((o) => `${o.name}:${o.bits}`)
        .join(' ');
    expect(bits('cvt.rn.satfinite.e2m1x2.f32')).toBe('d:8 a:32 b:32');
    expect(bits('cvt.rn.f16x2.e2m1x2')).toBe('d:32 a:8');
    expect(bits('cvt.rn.satfinite.e4m3x2.f32')).toBe('d:16 a:32 b:32');
    expect(bits('cvt.rn.satfinite.e4m3x2.f16x2')).toBe('d:16 a:32');
    expect(bits('cvt.rs.satfinite.e4m3x4.f32')).toBe('d:32 a:32 b:32 e:32 f:32 rbits:32');
    expect(bits('cvt.rs.satfinite.e2m1x4.f32')).toBe('d:16 a:32 b:32 e:32 f:32 rbits:32');
    expect(bits('cvt.rs.f16x2.f32')).toBe('d:32 a:32 b:32 rbits:32');
    expect(bits('cvt.rz.ue8m0x2.bf16x2')).toBe('d:16 a:32');
    expect(bits('cvt.rn.bf16x2.ue8m0x2')).toBe('d:32 a:16');
    expect(bits('cvt.rn.f32.f64')).toBe('d:32 a:64');
    expect(bits('cvt.rna.tf32.f32')).toBe('d:32 a:32');
  });

  it('lay out the elements as the Semantics block writes them, a in the upper bits', () => {
    const branches = semanticsBranches();
    expect(branches.length).toBeGreaterThanOrEqual(7);
    for (const f of CVT_FORMS.filter((x) => x.atype === 'f32' && x.elements.length > 1)) {
      const branch = branches.find((b) => b.types.includes(f.dtype))!;
      expect(branch, f.text).toBeDefined();
      expect(
        f.elements.map((e) => ({
          hi: e.dest.value.hi,
          lo: e.dest.value.lo,
          from: e.source.operand,
        })),
        f.text,
      ).toEqual(branch.writes);
    }
  });

  it('read packed sources element by element: the upper bits of a become the upper bits of d', () => {
    const layout = (text: string) =>
      form(text).elements.map(
        (e) =>
          `d[${e.dest.slot.hi}:${e.dest.slot.lo}]←a[${e.source.value.hi}:${e.source.value.lo}]`,
      );
    expect(layout('cvt.rn.f16x2.e4m3x2')).toEqual(['d[31:16]←a[15:8]', 'd[15:0]←a[7:0]']);
    expect(layout('cvt.rn.f16x2.e2m1x2')).toEqual(['d[31:16]←a[7:4]', 'd[15:0]←a[3:0]']);
    // Each 8-bit input "with 2 MSB bits 0": the value is the low 6 bits.
    expect(layout('cvt.rn.f16x2.e2m3x2')).toEqual(['d[31:16]←a[13:8]', 'd[15:0]←a[5:0]']);
    expect(layout('cvt.rn.satfinite.e5m2x2.f16x2')).toEqual(['d[15:8]←a[31:16]', 'd[7:0]←a[15:0]']);
    expect(layout('cvt.rz.ue8m0x2.bf16x2')).toEqual(['d[15:8]←a[31:16]', 'd[7:0]←a[15:0]']);
    expect(layout('cvt.rn.bf16x2.ue8m0x2')).toEqual(['d[31:16]←a[15:8]', 'd[15:0]←a[7:0]']);
    // tf32: the 19-bit value in the upper bits of the .b32 (decision cvt-tf32-layout).
    expect(form('cvt.rna.tf32.f32').elements[0]!.dest.value).toEqual({ hi: 31, lo: 13 });
  });

  it('take the random bits of .rs where decision cvt-rs-rbits puts them', () => {
    const rbits = (text: string) =>
      form(text).elements.map((e) => `${e.source.operand}:[${e.rbits!.hi}:${e.rbits!.lo}]`);
    expect(rbits('cvt.rs.f16x2.f32')).toEqual(['a:[28:16]', 'b:[12:0]']);
    expect(rbits('cvt.rs.bf16x2.f32')).toEqual(['a:[31:16]', 'b:[15:0]']);
    expect(rbits('cvt.rs.satfinite.e4m3x4.f32')).toEqual([
      'a:[31:24]',
      'b:[23:16]',
      'e:[15:8]',
      'f:[7:0]',
    ]);
    expect(rbits('cvt.rs.satfinite.e2m1x4.f32')).toEqual([
      'a:[31:24]',
      'b:[15:8]',
      'e:[23:16]',
      'f:[7:0]',
    ]);
    expect(form('cvt.rn.satfinite.e4m3x2.f32').elements.every((e) => e.rbits === undefined)).toBe(
      true,
    );
  });

  it('know the rounding in effect: written, the .rn default between f16 and bf16, or none', () => {
    expect(form('cvt.rz.f16.f32').rounding).toBe('rz');
    expect(form('cvt.f16.bf16').rounding).toBe('rn');
    expect(form('cvt.f32.f16').rounding).toBeNull();
    expect(form('cvt.f32.bf16').rounding).toBeNull();
    expect(form('cvt.rni.f64.f64').rounding).toBe('rni');
    expect(form('cvt.f32.f32').rounding).toBeNull();
  });

  it('know their least target and PTX ISA version from the notes', () => {
    const min = (text: string) => `${form(text).minTarget} ${form(text).minPtx}`;
    expect(min('cvt.rn.f16.f32')).toBe('sm_50 4.2');
    expect(min('cvt.rn.bf16.f32')).toBe('sm_80 7.0');
    expect(min('cvt.f32.bf16')).toBe('sm_80 7.1');
    expect(min('cvt.ftz.f32.bf16')).toBe('sm_90 7.8');
    expect(min('cvt.rn.satfinite.e4m3x2.f32')).toBe('sm_89 8.1');
    expect(min('cvt.rn.satfinite.f16.f32')).toBe('sm_70 8.1');
    expect(min('cvt.rn.satfinite.tf32.f32')).toBe('sm_100 8.6');
    expect(min('cvt.rn.satfinite.e2m1x2.f32')).toBe('sm_100a 8.6');
    expect(min('cvt.rs.f16x2.f32')).toBe('sm_100a 8.7');
  });
});

describe('cvt gating', () => {
  const valid = (text: string, target: string, ptx: string) =>
    cvtVerdictFor(form(text), findTarget(target)!, ptx).valid;

  it('e4m3x2: sm_90 from PTX ISA 7.8, sm_89 from 8.1', () => {
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_90', '7.8')).toBe(true);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.0')).toBe(false);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.1')).toBe(true);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_88', '9.0')).toBe(false);
  });

  it('FP4/FP6/UE8M0: the a targets, and the f families from PTX ISA 8.8 (sm_101 renamed sm_110)', () => {
    const f = 'cvt.rn.satfinite.e2m1x2.f32';
    expect(valid(f, 'sm_100a', '8.6')).toBe(true);
    expect(valid(f, 'sm_100', '9.0')).toBe(false);
    expect(valid(f, 'sm_90a', '9.0')).toBe(false);
    expect(valid(f, 'sm_101a', '8.6')).toBe(true);
    expect(valid(f, 'sm_110a', '9.0')).toBe(true);
    expect(valid(f, 'sm_110f', '9.0')).toBe(true);
    expect(valid(f, 'sm_103f', '8.8')).toBe(true);
    expect(valid(f, 'sm_121a', '8.8')).toBe(true);
    expect(valid(f, 'sm_120', '9.0')).toBe(false);
  });

  it('.rs: sm_100a and sm_103a only, from PTX ISA 8.7', () => {
    expect(valid('cvt.rs.f16x2.f32', 'sm_100a', '8.7')).toBe(true);
    expect(valid('cvt.rs.f16x2.f32', 'sm_100a', '8.6')).toBe(false);
    expect(valid('cvt.rs.f16x2.f32', 'sm_103a', '8.8')).toBe(true);
    expect(valid('cvt.rs.f16x2.f32', 'sm_100f', '9.0')).toBe(false);
    expect(valid('cvt.rs.f16x2.f32', 'sm_120a', '9.0')).toBe(false);
  });

  it('says why, in the words of the notes', () => {
    const r = checkAnyInstruction('cvt.rs.satfinite.e2m1x4.f32', 'sm_90', '8.6');
    expect(r.ok && r.verdict.reasons.map((x) => x.code)).toEqual(['target', 'ptx-version']);
    expect(r.ok && r.verdict.reasons[0]!.message).toMatch(/supported on sm_100a, sm_103a only/);
  });
});

describe('the cvt parser', () => {
  it('reads every form, and every line with its operands', () => {
    for (const f of CVT_FORMS) {
      const r = parseCvtInstruction(f.text);
      expect(r.ok && r.form, f.text).toBe(f);
    }
    const line = parseAnyInstruction(
      'cvt.rs.satfinite.e2m1x4.f32 %rs1, {%f1, %f2, %f3, %f4}, %r9;',
    );
    expect(line.ok && line.operands).toEqual(['%rs1', '%f1', '%f2', '%f3', '%f4', '%r9']);
  });

  it('reads the orders ptxas reads: any order, the first type is the destination', () => {
    const r = parseCvtInstruction('cvt.f16.satfinite.f32.rn');
    expect(r.ok && r.form.text).toBe('cvt.rn.satfinite.f16.f32');
    expect(r.ok && r.spelling?.message).toMatch(/the spec writes cvt\.rn\.satfinite\.f16\.f32/);
    const twice = parseCvtInstruction('cvt.rn.relu.relu.f16.f32');
    expect(twice.ok && twice.spelling?.repeated).toEqual([{ modifier: 'relu', times: 2 }]);
    expect(parseCvtInstruction('cvt.rn.rn.f16.f32').ok).toBe(false);
    expect(parseCvtInstruction('cvt.rn.ftz.ftz.f16.f32').ok).toBe(false);
  });

  it('explains what is wrong, and suggests only catalog forms', () => {
    const cases: [string, RegExp][] = [
      ['cvt.f16.f32', /requires \.rn \| \.rz \| \.rm \| \.rp/],
      ['cvt.rn.f32.f16', /\.rn is not allowed on cvt to \.f32 from \.f16/],
      ['cvt.rn.e4m3x2.f32', /requires \.satfinite/],
      ['cvt.rn.f32.e4m3x2', /no conversion to \.f32 from \.e4m3x2/],
      ['cvt.rn.s32.f32', /integer type \.s32/],
      ['cvt.RN.f16.f32', /did you mean \.rn/],
      ['cvt.rn.f16', /a destination type and a source type/],
      ['cvt.rn.relu.ftz.f16.f32', /cannot be combined/],
      ['cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1;', /takes operands d, a, b/],
    ];
    for (const [text, message] of cases) {
      const r = parseAnyInstruction(text);
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.error.message, text).toMatch(message);
      for (const s of r.error.expected.filter((x) => x.startsWith('cvt.')))
        expect(findCvtForm(s), `${text} suggests ${s}`).toBeDefined();
    }
  });

  it('names cvt among the opcodes when an opcode is unknown', () => {
    const r = parseAnyInstruction('cvx.rn.f16.f32');
    expect(!r.ok && r.error.expected).toContain('cvt');
    const upper = parseAnyInstruction('CVT.rn.f16.f32');
    expect(!r.ok && !upper.ok && upper.error.message).toMatch(/lower case: cvt/);
  });
});
