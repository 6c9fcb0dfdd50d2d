/**
 * `flotilla run` wires `validation.*` from flotilla.config.json into the implementor's runs: the demo backlog
 * with the demo's real `npm test` as the validation command (the scripted implementors' work passes it).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

describe('flotilla run with validation.commands', () => {
  it('runs the validation command in each implementor run and records it in the transcript', async () => {
    const repo = await fixtures.demoRepository();
    const server = await fixtures.serve();
    const configPath = join(repo.root, 'flotilla.config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8'));
    await writeFile(configPath, JSON.stringify({ ...config, validation: { commands: ['npm test'] } }));
    const child = spawn(process.execPath, [FLOTILLA_BIN, 'run', '--until-idle'], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('work item #2 review → approved');
    const sessionsDir = join(repo.root, '.flotilla/logs/sessions');
    const implementorLogs = (await readdir(sessionsDir)).filter((name) => name.includes('-implementor-'));
    expect(implementorLogs.length).toBeGreaterThanOrEqual(2);
    for (const name of implementorLogs) {
      const transcript = await readFile(join(sessionsDir, name), 'utf8');
      expect(transcript, name).toContain('FLOTILLA $ npm test');
      expect(transcript, name).toContain('FLOTILLA validation passed: npm test');
    }
  }, 120_000);
});
