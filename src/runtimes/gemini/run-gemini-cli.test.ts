import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelServer, type ModelServer } from '../../model-server/index.ts';
import { buildGeminiCommand } from './build-gemini-command.ts';
import { buildGeminiSettings } from './build-gemini-settings.ts';
import { findGeminiBinary } from './find-gemini-binary.ts';
import { type GeminiEvent, mapGeminiEvent } from './map-gemini-event.ts';

/**
 * The real gemini-cli (0.61) against the scripted model server's Gemini endpoint: one non-interactive turn in
 * a git repository where the scripted agent reads a file, runs a shell command, edits one file, writes
 * another and finishes. Not yet inside Flotilla's OS sandbox: that is the runtime's job (README.md).
 */
describe('gemini-cli against the scripted Gemini endpoint', () => {
  let server: ModelServer;
  let root: string;
  let repo: string;
  let events: GeminiEvent[];
  let exitCode: number | null;

  beforeAll(async () => {
    server = await createModelServer({
      routes: [
        {
          name: 'implementor',
          match: { firstUserIncludes: 'fix the greeting' },
          steps: [
            { content: [{ type: 'tool_use', name: 'read_file', input: { file_path: 'hello.txt' } }] },
            {
              expect: { lastToolResultIncludes: 'hello wrld' },
              content: [
                {
                  type: 'tool_use',
                  name: 'run_shell_command',
                  input: { command: 'git status --short && pwd', description: 'status' },
                },
              ],
            },
            {
              expect: { lastToolResultIncludes: ['?? hello.txt', '/repo'] },
              content: [
                {
                  type: 'tool_use',
                  name: 'replace',
                  input: {
                    file_path: 'hello.txt',
                    instruction: 'fix the typo',
                    old_string: 'hello wrld',
                    new_string: 'hello world',
                  },
                },
              ],
            },
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'write_file',
                  input: { file_path: 'notes.md', content: 'fixed\n' },
                },
              ],
            },
            { text: 'Done: the greeting is fixed.', usage: { input_tokens: 300, output_tokens: 40 } },
          ],
        },
      ],
    });
    root = mkdtempSync(path.join(tmpdir(), 'flotilla-gemini-'));
    repo = path.join(root, 'repo');
    mkdirSync(path.join(root, 'home', '.gemini'), { recursive: true });
    writeFileSync(path.join(root, 'home', '.gemini', 'settings.json'), JSON.stringify(buildGeminiSettings()));
    mkdirSync(repo);
    writeFileSync(path.join(repo, 'hello.txt'), 'hello wrld\n');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const binary = findGeminiBinary();
    if (binary === undefined) throw new Error('@google/gemini-cli is not installed (a devDependency)');
    const [command, ...args] = buildGeminiCommand({
      node: process.execPath,
      binary,
      prompt: 'fix the greeting in hello.txt',
      model: 'gemini-2.5-flash',
      approvalMode: 'yolo',
    });
    const child = spawn(command ?? 'node', args, {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: path.join(root, 'home'),
        GEMINI_API_KEY: 'scripted-key',
        GOOGLE_GEMINI_BASE_URL: server.url,
        GEMINI_CLI_NO_RELAUNCH: 'true',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    exitCode = await new Promise((resolve) => child.on('close', resolve));
    events = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(mapGeminiEvent);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('runs every scripted step and meets each expectation', () => {
    const steps = server.requests.filter((request) => request.kind === 'step');
    expect(steps.map((request) => request.stepIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(server.report()).toMatchObject({ ok: true, problems: [] });
    expect(exitCode).toBe(0);
  });

  it('edits and writes files in its working directory', () => {
    expect(readFileSync(path.join(repo, 'hello.txt'), 'utf8')).toBe('hello world\n');
    expect(readFileSync(path.join(repo, 'notes.md'), 'utf8')).toBe('fixed\n');
  });

  it('streams init, tool calls with their results, the final text and usage', () => {
    expect(events[0]).toMatchObject({ kind: 'init', model: 'gemini-2.5-flash' });
    const calls = events.filter((event) => event.kind === 'tool-call').map((event) => event.name);
    expect(calls).toEqual(['read_file', 'run_shell_command', 'replace', 'write_file']);
    const results = events.filter((event) => event.kind === 'tool-result');
    expect(results.map((event) => (event.ok ? 'ok' : event.output))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const text = events.flatMap((event) => (event.kind === 'text' ? [event.text] : [])).join('');
    expect(text).toBe('Done: the greeting is fixed.');
    const result = events.at(-1);
    expect(result).toMatchObject({ kind: 'result', ok: true, usage: { toolCalls: 4 } });
    expect(result?.kind === 'result' ? result.usage.outputTokens : 0).toBeGreaterThanOrEqual(40);
  });
});
