import { describe, expect, it } from 'vitest';
import { runFlotilla } from '../../src/cli/support/run-flotilla.ts';
import {
  expectDemoCosts,
  expectDemoRevisions,
  expectDemoRuns,
  expectDemoTranscripts,
  expectDemoWorktreesSettled,
  withKeptDemo,
} from '../support/demo-loop.ts';

/** Any connection codex or git would open outside 127.0.0.1 arrives at the model server and is refused. */
const proxyTripwire = (url: string): Record<string, string> =>
  Object.fromEntries(
    ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].flatMap((name) => [
      [name, url],
      [name.toLowerCase(), url],
    ]),
  );

describe('flotilla demo --runtime codex', () => {
  it('runs the same loop with every role on the real codex binary against the scripted Responses endpoint', async () => {
    await withKeptDemo({ runtime: 'codex', agentEnv: proxyTripwire }, (demo) => {
      expect(demo.outcome.ok, demo.output).toBe(true);
      expect(demo.outcome.modelServerProblems, demo.output).toEqual([]);
      expect(demo.output).toContain('(every role on codex)');
      expectDemoRuns(demo, 'scripted');
      // Priced as the model the scripted server answers for, marked made up like the Claude demo's.
      expectDemoCosts(demo);
      // codex's own events, not the Claude SDK's: the files were written by exec_command.
      expectDemoTranscripts(demo, 'FLOTILLA_EOF');
      // The reworked revision carries the reviewer's requested change; checks passed on it.
      expectDemoRevisions(demo);
      expectDemoWorktreesSettled(demo);
    });
  }, 240_000);

  it('refuses an unknown runtime in one line listing the choices, before creating anything', async () => {
    const result = await runFlotilla(process.cwd(), ['demo', '--runtime', 'cursor']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "flotilla demo: unknown --runtime 'cursor'; expected one of: claude, codex, cli, gemini\n",
    );
    expect(result.stdout).toBe('');
  });
});
