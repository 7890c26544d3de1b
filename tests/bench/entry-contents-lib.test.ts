import { describe, expect, it } from 'vitest';
import { groupOf, segmentsOf, shortName } from '../../bench/entry-contents-lib.ts';

describe('segmentsOf', () => {
  it('decodes columns relative within a line and source indices across lines', () => {
    // AAAA: column 0, source 0; CAAC: column +1; ;ACAA: a new line, column 0, source +1.
    expect(segmentsOf('AAAA,CAAC;ACAA')).toEqual([
      [
        [0, 0],
        [1, 0],
      ],
      [[0, 1]],
    ]);
  });

  it('reads multi-digit and negative fields, and segments without a source', () => {
    // gBAAA: column 16 (g continues, B adds 1·32, halved for the sign bit); DDAA: column −1 from
    // there, source −1; a one-field segment maps to no source.
    expect(segmentsOf('gBCAA,DDAA,E')).toEqual([
      [
        [16, 1],
        [15, 0],
        [17, -1],
      ],
    ]);
  });
});

describe('groupOf and shortName', () => {
  it('groups React apart, other packages by name, src by folder and each record by itself', () => {
    expect(groupOf('../../node_modules/react-dom/cjs/react-dom-client.production.js')).toBe(
      'React',
    );
    expect(groupOf('../../node_modules/zustand/esm/vanilla.mjs')).toBe('package zustand');
    expect(groupOf('../../w/src/engine/semantics/arithmetic.ts')).toBe('engine/semantics');
    expect(groupOf('../../w/src/engine/pipeline.ts')).toBe('engine');
    expect(groupOf('../../w/src/catalog/records/convert.ts')).toBe('catalog/records/convert.ts');
    expect(shortName('../../w/node_modules/react/index.js')).toBe('react/index.js');
    expect(shortName('../../w/src/ui/App.tsx')).toBe('src/ui/App.tsx');
  });
});
