/**
 * The pure parts of bench/entry-contents.ts, kept apart so tests can check them
 * (tests/bench/entry-contents-lib.test.ts): a source map's segments, and the group a source file
 * is counted in.
 */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * A source map's `mappings`, decoded to each generated line's segments as [column, source index]
 * (source map v3: base64 VLQ fields, columns relative within a line, source indices across lines).
 */
export function segmentsOf(mappings: string): [number, number][][] {
  const lines: [number, number][][] = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments: [number, number][] = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length > 1) source += fields[1]!;
      segments.push([column, fields.length > 1 ? source : -1]);
    }
    lines.push(segments);
  }
  return lines;
}

/** A source file as the build's map names it, from its package or from src/. */
export function shortName(file: string): string {
  return file.replace(/^.*node_modules\//, '').replace(/^.*?\/(src\/)/, '$1');
}

/** A source file's group: its package, or its folder of src/ (the catalog's records one by one). */
export function groupOf(id: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id);
  if (pkg) return /^(react|react-dom|scheduler)$/.test(pkg[1]!) ? 'React' : `package ${pkg[1]}`;
  const src = /\/src\/([^/]+)\/(.+)$/.exec(id);
  if (!src) return 'other';
  const [, layer, rest] = src as unknown as [string, string, string];
  if (layer === 'catalog' && rest.startsWith('records/')) return `catalog/${rest}`;
  const sub = rest.includes('/') ? `/${rest.split('/')[0]}` : '';
  return `${layer}${sub}`;
}
