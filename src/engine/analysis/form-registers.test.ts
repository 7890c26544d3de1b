import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../../catalog/all-forms.ts';
import { FORMATS } from '../format.ts';
import { evaluate } from '../pipeline.ts';
import {
  registerHolding,
  registersHex,
  registersHolding,
  registersOfHex,
} from './form-registers.ts';

describe('registers that hold chosen element values', () => {
  it('put the value in every element that reads the input', () => {
    const x2 = findForm('fma.rn.f16x2')!;
    expect(registersHolding(x2, [0x3c00n, 0x4000n, 0x8000n])).toEqual({
      a: 0x3c003c00n,
      b: 0x40004000n,
      c: 0x80008000n,
    });
    expect(registerHolding(x2, 'b', 0x7bffn)).toBe(0x7bff7bffn);
    // cvt.rn.f16x2.f32: element 0 from a, element 1 from b; e4m3x4 from a, b, e, f.
    expect(registersHolding(findForm('cvt.rn.f16x2.f32')!, [0x3f800000n])).toEqual({
      a: 0x3f800000n,
      b: 0x3f800000n,
    });
    const x4 = findForm('cvt.rs.satfinite.e4m3x4.f32')!;
    expect(registersHex(x4, registersHolding(x4, [0x40000000n]))).toEqual({
      a: '0x40000000',
      b: '0x40000000',
      e: '0x40000000',
      f: '0x40000000',
      rbits: '0x00000000',
    });
    // Packed sources: e4m3x2 in the two bytes of a 16-bit a.
    expect(registerHolding(findForm('cvt.rn.f16x2.e4m3x2')!, 'a', 0x38n)).toBe(0x3838n);
  });

  it('every element of any form reads back the value it was given, and hex goes both ways', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMS),
        fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { minLength: 3, maxLength: 3 }),
        (form, raw) => {
          const places = form.elements[0]!.inputs;
          const values = places.map(
            (p, i) => raw[i % raw.length]! & ((1n << BigInt(FORMATS[p.format].width)) - 1n),
          );
          const registers = registersHolding(form, values);
          expect(registersOfHex(registersHex(form, registers))).toEqual(registers);
          const read = evaluate(form, registers);
          for (const element of read.elements) {
            const step = element.steps[0]!;
            if (step.kind !== 'inputs') throw new Error('the first step reads the inputs');
            expect(step.operands.map((o) => BigInt(o.bits))).toEqual(values);
            expect(step.operands.every((o) => o.padding === null || BigInt(o.padding) === 0n)).toBe(
              true,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
