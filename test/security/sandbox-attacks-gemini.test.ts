import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImplementorResult } from '../../src/domain/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer, type StepSpec } from '../../src/model-server/index.ts';
import { createGeminiRuntime } from '../../src/runtimes/gemini/create-gemini-runtime.ts';
import {
  type AttackSetup,
  createAttackSetup,
  expectAttacksContained,
  REMOVE_LEFTOVERS_COMMAND,
} from '../support/sandbox-attack-kit.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { PLANTED_SECRETS } from '../support/shared/planted-secrets.ts';

/**
 * Issue #25's attacks on the Gemini runtime: the real gemini-cli, driven by the scripted Gemini endpoint,
 * runs each attack through its real `run_shell_command` tool inside the OS sandbox (`yolo`: gemini approves
 * everything, so the sandbox is the only boundary). Nothing outside the worktree changes, no planted secret
 * leaves, and the legitimate work after the attacks still lands in the patch.
 */
let repo: TempGitRepo | undefined;
let setup: AttackSetup | undefined;
let server: ModelServer | undefined;
let stateDir: string | undefined;
afterEach(async () => {
  await server?.close();
  await setup?.cleanup();
  await repo?.cleanup();
  if (stateDir !== undefined) await rm(stateDir, { recursive: true, force: true });
  server = setup = repo = stateDir = undefined;
});

const shell = (command: string): StepSpec => ({
  content: [{ type: 'tool_use', name: 'run_shell_command', input: { command, description: 'step' } }],
});

describe('an implementor attacking from inside the OS sandbox (Gemini runtime)', () => {
  it('changes nothing outside its worktree, reads no planted secret, and its legitimate work passes', async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# app\n', 'src/app.js': 'export const a = 1;\n' });
    setup = await createAttackSetup(repo.root);
    stateDir = await mkdtemp('/var/tmp/flotilla-test-gemini-');
    server = await createModelServer({
      name: 'gemini-attacks',
      routes: [
        {
          name: 'implementor',
          steps: [
            ...setup.attacks.map(shell),
            shell(REMOVE_LEFTOVERS_COMMAND),
            shell(
              "printf 'export const b = 2;\\n' > src/b.js && git add src/b.js && git commit -q -m 'add b' && echo COMMIT-OK",
            ),
            {
              expect: { lastToolResultIncludes: 'COMMIT-OK' },
              structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Tried.' },
            },
          ],
        },
      ],
    });
    const logger = createRecordingLogger();
    const runtime = createGeminiRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger,
      stateDir,
      model: 'gemini-2.5-flash',
      baseEnv: { ...process.env, ...PLANTED_SECRETS, GEMINI_API_KEY: 'dummy' },
      extraEnv: { GOOGLE_GEMINI_BASE_URL: server.url },
      setupCommand: 'none',
      maxAgentDuration: 120,
      logging: { agentSessions: true, logsDir: join(stateDir, 'logs') },
      runtime: 'scripted',
      sandbox: setup.sandbox,
    });
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: randomUUID(),
      prompt: '## Work Item #7 — Escape\n\nObjective: try.\n',
      workItemID: '7',
      branchName: 'flotilla/7',
    });
    const result = (await handle.result) as ImplementorResult & { patch: string | null };

    expect(server.report().problems).toEqual([]);
    expect(result.outcome).toBe('completed');
    expect(result.patch).toContain('src/b.js');
    expect(result.patch).not.toMatch(/lnk|moved\.txt|OWNED/);
    const requests = JSON.stringify(server.requests.map((request) => request.body));
    // Every command ran in gemini's shell (each result names its process group), none refused by gemini:
    // the last request carries the whole conversation.
    const last = JSON.stringify(server.requests.at(-1)?.body);
    expect(last.match(/Process Group PGID: \d+/g)).toHaveLength(setup.attacks.length + 2);
    // The attacks ran and the file system refused them (not skipped, not refused by gemini).
    expect(requests).toContain('Read-only file system');
    await expectAttacksContained(setup, {
      'model requests': requests,
      transcript: await readFile(handle.logFilePath ?? '', 'utf8'),
      logs: JSON.stringify(logger.records),
    });
  }, 120_000);
});
