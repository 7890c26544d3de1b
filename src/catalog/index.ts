export * from './types.ts';
export * from './ptx-versions.ts';
export * from './targets.ts';
export * from './instructions.ts';
export * from './forms.ts';
export * from './parse.ts';
export * from './spelling.ts';
export * from './validate.ts';
