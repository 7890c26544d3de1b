import { describe, expect, it } from 'vitest';
import { readableDecimal } from './decimal-text.ts';

describe('readableDecimal', () => {
  it('keeps short decimals as they are', () => {
    expect(readableDecimal('-0.00006103515625')).toEqual({
      text: '-0.00006103515625',
      shortened: false,
      digits: 10,
    });
    expect(readableDecimal('65536').shortened).toBe(false);
  });

  it('cuts long ones after 17 significant digits, with "…", positional where toPrecision is', () => {
    expect(readableDecimal('-0.999999970197677612304687500001')).toMatchObject({
      text: '-0.99999997019767761…',
      shortened: true,
    });
    expect(readableDecimal('0.0000610053539276123046875')).toMatchObject({
      text: '0.000061005353927612304…',
      digits: 21,
    });
    expect(readableDecimal('340282366920938463463374607431768211456')).toMatchObject({
      text: '3.4028236692093846…e+38',
      digits: 39,
    });
    const tiny = `0.${'0'.repeat(80)}84337583545844185794788592410160152061`;
    expect(readableDecimal(tiny).text).toBe('8.4337583545844185…e-81');
  });
});
