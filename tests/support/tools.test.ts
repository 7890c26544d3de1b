/** The rule for suites whose external tool is missing (tests/support/tools.ts). */
import { describe, expect, it } from 'vitest';
import { gateFor, probeCommand, type ToolProbe } from './tools.ts';

const present: ToolProbe = { tool: 'ptxas', state: 'present', version: 'release 13.0' };
const absent: ToolProbe = { tool: 'nvcc', state: 'absent', reason: 'nvcc is not on PATH' };
const broken: ToolProbe = { tool: 'ptxas', state: 'broken', reason: 'exited with 3' };

describe('gateFor', () => {
  it('runs the suite when every tool is present, required or not', () => {
    expect(gateFor('s', [present], false)).toEqual({ run: true });
    expect(gateFor('s', [present], true)).toEqual({ run: true });
  });

  it('skips, naming the tool and the switch, when a tool is absent and not required', () => {
    const gate = gateFor('engine ~ host', [present, absent], false);
    expect(gate).toMatchObject({ run: false, verdict: 'skip', tool: 'nvcc' });
    expect(gate.run === false && gate.message).toMatch(
      /^engine ~ host skipped: nvcc is not on PATH .*PTXF_REQUIRE_TOOLS=1/,
    );
  });

  it('fails, naming the tool, when a tool is absent and PTXF_REQUIRE_TOOLS=1', () => {
    const gate = gateFor('engine ~ host', [present, absent], true);
    expect(gate).toMatchObject({ run: false, verdict: 'fail', tool: 'nvcc' });
    expect(gate.run === false && gate.message).toMatch(
      /^engine ~ host needs nvcc and PTXF_REQUIRE_TOOLS=1 is set, but nvcc is not on PATH/,
    );
  });

  it('fails when a tool is installed but broken, required or not', () => {
    for (const required of [false, true]) {
      const gate = gateFor('s', [broken], required);
      expect(gate).toMatchObject({ run: false, verdict: 'fail', tool: 'ptxas' });
      expect(gate.run === false && gate.message).toMatch(/installed but broken: exited with 3/);
    }
  });
});

describe('probeCommand', () => {
  it('finds a command that runs, and reads its version from the last line', () => {
    expect(probeCommand('ptxas', process.execPath, ['-e', 'console.log("a\\nv9")'])).toEqual({
      tool: 'ptxas',
      state: 'present',
      version: 'v9',
    });
  });

  it('calls a command that does not exist absent', () => {
    expect(probeCommand('nvcc', 'ptxf-no-such-command', ['--version'])).toEqual({
      tool: 'nvcc',
      state: 'absent',
      reason: 'ptxf-no-such-command is not on PATH',
    });
  });

  it('calls a command that exits with an error broken, with what it said', () => {
    const probe = probeCommand('ptxas', process.execPath, [
      '-e',
      'console.error("no licence"); process.exit(3)',
    ]);
    expect(probe).toMatchObject({ tool: 'ptxas', state: 'broken' });
    expect(probe.state !== 'present' && probe.reason).toMatch(/exited with 3: no licence$/);
  });

  it('calls python3 without the module absent, not broken', () => {
    const probe = probeCommand(
      'numpy',
      process.execPath,
      ['-e', 'console.error("ModuleNotFoundError: No module named \'numpy\'"); process.exit(1)'],
      /No module named .?numpy/,
    );
    expect(probe.state).toBe('absent');
  });
});
