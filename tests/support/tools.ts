/**
 * The external tools some suites check the engine and the catalog against: ptxas and nvcc from
 * the CUDA toolkit, python3 with numpy. One probe per tool, and one rule for a suite whose tool
 * is missing:
 *
 * - tool absent, PTXF_REQUIRE_TOOLS unset: the suite skips, and says so on stderr and in the name
 *   of a skipped test (a plain `npm test` on a machine with only Node passes);
 * - tool absent, PTXF_REQUIRE_TOOLS=1 (CI sets it in .ci/run): the suite FAILS, naming the tool;
 * - tool present but not working (it runs and exits with an error): the suite fails either way,
 *   since a broken tool must not pass for a missing one.
 */
import { spawnSync } from 'node:child_process';
import { it } from 'vitest';

export type ToolName = 'ptxas' | 'nvcc' | 'numpy';

export type ToolProbe =
  | { readonly tool: ToolName; readonly state: 'present'; readonly version: string }
  | { readonly tool: ToolName; readonly state: 'absent' | 'broken'; readonly reason: string };

/** True when CI (or a user) asks for every tool-backed suite to run. */
export const REQUIRE_TOOLS = process.env.PTXF_REQUIRE_TOOLS === '1';

const INSTALL: Record<ToolName, string> = {
  ptxas: 'install the CUDA 13 toolkit and put its bin/ on PATH',
  nvcc: 'install the CUDA 13 toolkit and put its bin/ on PATH',
  numpy: 'install numpy for python3: pip install numpy',
};

/** Runs `command args` once; absent when the command does not exist, broken when it fails. */
export function probeCommand(
  tool: ToolName,
  command: string,
  args: readonly string[],
  missingModule?: RegExp,
): ToolProbe {
  const out = spawnSync(command, args, { encoding: 'utf8' });
  if (out.error) {
    const code = (out.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { tool, state: 'absent', reason: `${command} is not on PATH` };
    return { tool, state: 'broken', reason: `${command} could not be run: ${out.error.message}` };
  }
  if (out.status !== 0) {
    if (missingModule?.test(out.stderr))
      return { tool, state: 'absent', reason: `${command} has no ${tool} module` };
    const said = (out.stderr || out.stdout).trim().split('\n').slice(-3).join(' | ');
    return {
      tool,
      state: 'broken',
      reason: `\`${command} ${args.join(' ')}\` exited with ${out.status ?? out.signal}: ${said}`,
    };
  }
  return { tool, state: 'present', version: out.stdout.trim().split('\n').at(-1) ?? '' };
}

const probes = new Map<ToolName, ToolProbe>();

/** Whether `tool` is here and works (probed once per test file). */
export function probeTool(tool: ToolName): ToolProbe {
  let probe = probes.get(tool);
  if (!probe) {
    probe =
      tool === 'numpy'
        ? probeCommand(
            'numpy',
            'python3',
            ['-c', 'import numpy; print(numpy.__version__)'],
            /No module named .?numpy/,
          )
        : probeCommand(tool, tool, ['--version']);
    probes.set(tool, probe);
  }
  return probe;
}

/** What `suiteNeeds` found: every tool present, or the first one missing and why. */
export type ToolGate =
  | { readonly run: true }
  | {
      readonly run: false;
      readonly verdict: 'skip' | 'fail';
      readonly tool: ToolName;
      readonly message: string;
    };

/**
 * The gate for a suite given what the probes found and whether the tools are required (the
 * first tool that is not present decides).
 */
export function gateFor(suite: string, probes: readonly ToolProbe[], required: boolean): ToolGate {
  for (const probe of probes) {
    const tool = probe.tool;
    if (probe.state === 'present') continue;
    if (probe.state === 'broken')
      return {
        run: false,
        verdict: 'fail',
        tool,
        message: `${suite} needs ${tool}, which is installed but broken: ${probe.reason}`,
      };
    return required
      ? {
          run: false,
          verdict: 'fail',
          tool,
          message: `${suite} needs ${tool} and PTXF_REQUIRE_TOOLS=1 is set, but ${probe.reason} (${INSTALL[tool]})`,
        }
      : {
          run: false,
          verdict: 'skip',
          tool,
          message: `${suite} skipped: ${probe.reason} (${INSTALL[tool]}; PTXF_REQUIRE_TOOLS=1 makes this a failure)`,
        };
  }
  return { run: true };
}

/**
 * Call at the top level of a test file, before the suite it gates: true when every one of
 * `tools` is here (run the suite with `describe.runIf(...)`). Otherwise it registers one test
 * that stands for the suite: skipped, with the reason as its name and on stderr, or (tool
 * required, or broken) failing with the reason as its error.
 */
export function suiteNeeds(suite: string, tools: readonly ToolName[]): boolean {
  const gate = gateFor(suite, tools.map(probeTool), REQUIRE_TOOLS);
  if (gate.run) return true;
  if (gate.verdict === 'skip') {
    console.warn(gate.message);
    it.skip(gate.message, () => undefined);
  } else {
    it(`${suite}: ${gate.tool} is required`, () => {
      throw new Error(gate.message);
    });
  }
  return false;
}
