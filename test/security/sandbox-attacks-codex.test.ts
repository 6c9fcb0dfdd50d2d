import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImplementorResult } from '../../src/domain/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer, type StepSpec } from '../../src/model-server/index.ts';
import { createCodexRuntime } from '../../src/runtimes/codex/create-codex-runtime.ts';
import {
  type AttackSetup,
  createAttackSetup,
  expectAttacksContained,
  REMOVE_LEFTOVERS_COMMAND,
} from '../support/sandbox-attack-kit.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { PLANTED_SECRETS } from '../support/shared/planted-secrets.ts';

/**
 * Issue #25's attacks on the Codex runtime: the real codex binary (bundled with @openai/codex-sdk), driven by
 * the scripted Responses endpoint, runs each attack through its real `exec_command` tool inside the OS
 * sandbox (codex's own is off there). Nothing outside the worktree changes, no planted secret leaves, and the
 * legitimate work after the attacks still lands in the patch.
 */
const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';
/** Not under /tmp (see test/model-server/run-codex-session.ts). */
const CODEX_HOMES = '/var/tmp/flotilla-test-codex-homes';

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

const exec = (cmd: string): StepSpec => ({
  content: [{ type: 'tool_use', name: 'exec_command', input: { cmd } }],
});

describe('an implementor attacking from inside the OS sandbox (Codex runtime)', () => {
  it('changes nothing outside its worktree, reads no planted secret, and its legitimate work passes', async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# app\n', 'src/app.js': 'export const a = 1;\n' });
    setup = await createAttackSetup(repo.root);
    await mkdir(CODEX_HOMES, { recursive: true });
    stateDir = await mkdtemp(join(CODEX_HOMES, 'attacks-'));
    server = await createModelServer({
      name: 'codex-attacks',
      routes: [
        {
          name: 'implementor',
          steps: [
            ...setup.attacks.map(exec),
            exec(REMOVE_LEFTOVERS_COMMAND),
            exec(
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
    const runtime = createCodexRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger,
      stateDir,
      model: 'scripted',
      provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: SCRIPTED_KEY },
      baseEnv: { ...process.env, ...PLANTED_SECRETS, [SCRIPTED_KEY]: 'dummy' },
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
    // The attacks ran and the file system refused them (not skipped, not refused by codex).
    expect(requests).toContain('Read-only file system');
    await expectAttacksContained(setup, {
      'model requests': requests,
      transcript: await readFile(handle.logFilePath ?? '', 'utf8'),
      logs: JSON.stringify(logger.records),
    });
  }, 120_000);
});
