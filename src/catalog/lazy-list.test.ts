import { describe, expect, it } from 'vitest';
import { lazyList } from './lazy-list.ts';

describe('lazyList', () => {
  it('builds nothing until read, then once, and reads as the array it built', () => {
    let builds = 0;
    const list = lazyList(() => {
      builds++;
      return [3, 1, 2];
    });
    expect(builds).toBe(0);
    expect(Array.isArray(list)).toBe(true);
    expect(builds).toBe(0);
    expect(list.length).toBe(3);
    expect(list[0]).toBe(3);
    expect([...list]).toEqual([3, 1, 2]);
    expect(list.filter((x) => x > 1)).toEqual([3, 2]);
    expect(Object.keys(list)).toEqual(['0', '1', '2']);
    expect(list).toEqual([3, 1, 2]);
    expect(builds).toBe(1);
  });

  it('cannot be changed', () => {
    const list = lazyList(() => [1]) as number[];
    expect(() => {
      list[0] = 2;
    }).toThrow(TypeError);
    expect(() => list.push(2)).toThrow(TypeError);
    expect(list).toEqual([1]);
  });
});
