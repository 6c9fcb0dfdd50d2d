import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findModelCredential, rolesNeedingCredentials } from './find-model-credential.ts';

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

describe('rolesNeedingCredentials', () => {
  it('lists the roles whose runtime is claude', () => {
    expect(
      rolesNeedingCredentials({
        runtimes: { planner: 'scripted', implementor: 'claude', reviewer: 'claude' },
      }),
    ).toEqual(['implementor', 'reviewer']);
  });
});
