/** Types of cli-bundle.mjs (plain JavaScript: it runs before any TypeScript is compiled). */
export interface CliBundleOptions {
  /** The checkout: an absolute folder (default: the one holding bin/). */
  readonly root?: string;
  /** The entry module, relative to root (default: src/cli/main.ts). */
  readonly entry?: string;
  /** Where the bundle goes (default: root's node_modules/.cache, else the temporary folder). */
  readonly cacheDir?: string;
}

export function cliBundle(options?: CliBundleOptions): Promise<{ url: string; built: boolean }>;
