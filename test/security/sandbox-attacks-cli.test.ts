import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImplementorResult } from '../../src/domain/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import {
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  implementorParams,
} from '../support/cli-runtime-fixture.ts';
import {
  type AttackSetup,
  createAttackSetup,
  expectAttacksContained,
  REMOVE_LEFTOVERS_COMMAND,
} from '../support/sandbox-attack-kit.ts';
import { PLANTED_SECRETS } from '../support/shared/planted-secrets.ts';

/**
 * Issue #25's attacks on the CLI runtime: the scripted agent CLI (a real process, the `claude` preset's
 * program) runs each attack as a shell command line, as an agent's shell tool would, and writes into the
 * shared git directory as an agent without hooks could. The whole process is in the OS sandbox and no hook
 * or validator sees anything. Nothing outside the worktree changes, no planted secret leaves, and the
 * legitimate commit after the attacks lands in the patch.
 */
let cli: CliRuntimeFixture | undefined;
let setup: AttackSetup | undefined;
afterEach(async () => {
  await setup?.cleanup();
  await cli?.cleanup();
  setup = cli = undefined;
});

describe('an implementor attacking from inside the OS sandbox (CLI runtime)', () => {
  it('changes nothing outside its worktree, reads no planted secret, and its legitimate work passes', async () => {
    cli = await createCliRuntimeFixture();
    // The fixture's directory (the agent's script and its calls log) is the harness's, not the agent's reach.
    setup = await createAttackSetup(cli.repo.root, { extraWritable: [cli.dir] });
    const logger = createRecordingLogger();
    const runtime = await cli.runtimeFor(
      [
        {
          steps: [
            ...setup.attacks.map((command) => ({ run: command })),
            // Into the git directory its commits use: the per-run one, which only its own commits run.
            {
              gitHook: {
                name: 'pre-commit',
                content: '#!/bin/sh\ntouch /var/tmp/flotilla-pwned 2>/dev/null\nexit 0\n',
              },
            },
            { run: REMOVE_LEFTOVERS_COMMAND },
            { write: { path: 'src/b.js', content: 'export const b = 2;\n' } },
            { commit: 'add b' },
            { run: 'git log --oneline -1 && echo COMMIT-OK' },
            { signal: { status: 'done', result: { outcome: 'completed', summary: 'Tried.' } } },
          ],
        },
      ],
      {
        logger,
        // Flotilla's whole environment, the planted credentials included.
        baseEnv: {
          ...process.env,
          ...PLANTED_SECRETS,
          FAKE_AGENT_SCRIPT: `${cli.dir}/script.json`,
          ANTHROPIC_API_KEY: 'sk-ant-test-model-key',
        },
        sandbox: setup.sandbox,
      },
    );
    const handle = await runtime.startAgent(
      implementorParams('## Work Item #7 — Escape\n\nObjective: try.\n'),
    );
    const result = (await handle.result) as ImplementorResult & { patch: string | null };
    const transcript = await readFile(handle.logFilePath ?? '', 'utf8');

    // The attacks ran and the file system refused them; the legitimate commit worked inside.
    expect(transcript).toContain('Read-only file system');
    expect(transcript).toContain('COMMIT-OK');
    expect(result.outcome).toBe('completed');
    expect(result.patch).toContain('src/b.js');
    expect(result.patch).not.toMatch(/lnk|moved\.txt|OWNED/);
    await expectAttacksContained(setup, {
      transcript,
      logs: JSON.stringify(logger.records),
      'what the agent was given': JSON.stringify(cli.calls()),
    });
  }, 120_000);
});
