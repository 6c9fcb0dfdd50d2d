import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRuntime } from '../runtimes/registry.ts';
import type { RuntimeCredentials, RuntimeEnv } from '../runtimes/shared/runtime-descriptor.ts';
import { checkModelCredentials, findModelCredential as findCredential } from './find-model-credential.ts';

// The Claude runtime's credentials, as its descriptor in the registry declares them.
const claude = findRuntime('claude')?.credentials as RuntimeCredentials;
const findModelCredential = (env: RuntimeEnv, home: string) => findCredential(claude, env, home);

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function emptyHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-home-'));
  dirs.push(dir);
  return dir;
}

describe('findModelCredential', () => {
  it('accepts each variable the Claude CLI authenticates with, and never returns its value', async () => {
    const home = await emptyHome();
    for (const variable of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN']) {
      const found = findModelCredential({ [variable]: 'sk-secret-value' }, home);
      expect(found).toEqual({ ok: true, variable });
      expect(JSON.stringify(found)).not.toContain('sk-secret-value');
    }
  });

  it('does not count empty values or a base URL alone, and says what to set or how to dry-run', async () => {
    const home = await emptyHome();
    const found = findModelCredential(
      { ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
      home,
    );
    if (found.ok) throw new Error('expected no credential');
    expect(found.advice.join('\n')).toContain('set ANTHROPIC_API_KEY');
    expect(found.advice.join('\n')).toContain('CLAUDE_CODE_OAUTH_TOKEN');
    expect(found.advice.join('\n')).toContain('flotilla init --scripted');
    expect(found.advice.join('\n')).not.toContain('claude login');
  });

  it('explains that `claude login` credentials are not seen by agents', async () => {
    const home = await emptyHome();
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', '.credentials.json'), '{}');
    const found = findModelCredential({}, home);
    if (found.ok) throw new Error('expected no credential');
    expect(found.advice.join('\n')).toContain(
      `the \`claude login\` credentials in ${join(home, '.claude', '.credentials.json')} are not used`,
    );
    const configDir = join(home, 'elsewhere');
    const viaConfigDir = findModelCredential({ CLAUDE_CONFIG_DIR: configDir }, home);
    expect(viaConfigDir.ok === false && viaConfigDir.advice.join('\n')).not.toContain('claude login');
  });
});

describe('checkModelCredentials', () => {
  it('lists, per runtime that declares credentials, the roles on it and what the environment holds', async () => {
    const home = await emptyHome();
    const runtimes = { planner: 'scripted', implementor: 'claude', reviewer: 'claude' } as const;
    expect(checkModelCredentials({ runtimes }, { ANTHROPIC_AUTH_TOKEN: 't' }, home)).toEqual([
      {
        runtime: 'claude',
        label: 'Claude',
        accounts: false,
        roles: ['implementor', 'reviewer'],
        credential: { ok: true, variable: 'ANTHROPIC_AUTH_TOKEN' },
      },
    ]);
    const [missing] = checkModelCredentials({ runtimes }, {}, home);
    expect(missing?.credential.ok).toBe(false);
  });

  it('needs no credential from the environment for a runtime with accounts', async () => {
    const home = await emptyHome();
    const [status] = checkModelCredentials(
      {
        runtimes: { planner: 'claude', implementor: 'claude', reviewer: 'claude' },
        accounts: [{ name: 'work', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$WORK_KEY' } }],
      },
      {},
      home,
    );
    expect(status).toMatchObject({ runtime: 'claude', accounts: true, roles: [] });
  });
});
