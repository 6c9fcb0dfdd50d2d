import { describe, expect, it } from 'vitest';
import { buildCliCommand, MAX_ARGUMENT_BYTES } from './build-cli-command.ts';
import { CLI_PRESET_NAMES, CLI_PRESETS, resolveCliPreset } from './cli-presets.ts';
import { CLI_RUNTIME_PRESETS } from './cli-runtime-config-schema.ts';

const PROMPT = 'Fix the bug.\nThen write the signal file.';
const FILE = '/state/runs/s1/prompt.md';

function build(name: string, resume: boolean, sessionId: string | null = 'sess-1') {
  return buildCliCommand({
    preset: resolveCliPreset(name),
    prompt: PROMPT,
    sessionId,
    resume,
    promptFilePath: FILE,
  });
}

describe('buildCliCommand: each preset', () => {
  it('claude: print mode, prompt on stdin, assigned session id, --resume', () => {
    expect(build('claude', false)).toEqual({
      file: 'claude',
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'bypassPermissions',
        '--session-id',
        'sess-1',
      ],
      stdin: PROMPT,
      promptFile: null,
    });
    expect(build('claude', true)).toEqual({
      file: 'claude',
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        'bypassPermissions',
        '--resume',
        'sess-1',
      ],
      stdin: PROMPT,
      promptFile: null,
    });
  });

  it('codex: exec with JSON events and the workspace-write sandbox, stdin via "-", resume subcommand', () => {
    expect(build('codex', false, null)).toEqual({
      file: 'codex',
      args: ['exec', '--json', '--sandbox', 'workspace-write', '-'],
      stdin: PROMPT,
      promptFile: null,
    });
    expect(build('codex', true, 'thread-9')).toEqual({
      file: 'codex',
      args: ['exec', '--json', '--sandbox', 'workspace-write', 'resume', 'thread-9', '-'],
      stdin: PROMPT,
      promptFile: null,
    });
  });

  it('aider: non-interactive flags, the prompt in a file, no resume', () => {
    expect(build('aider', false, null)).toEqual({
      file: 'aider',
      args: [
        '--yes-always',
        '--no-pretty',
        '--no-check-update',
        '--no-show-release-notes',
        '--analytics-disable',
        '--message-file',
        FILE,
      ],
      stdin: null,
      promptFile: { path: FILE, content: PROMPT },
    });
    expect(() => build('aider', true)).toThrow('this CLI preset cannot resume a session');
  });

  it('gemini: --yolo, prompt on stdin, no resume', () => {
    expect(build('gemini', false, null)).toEqual({
      file: 'gemini',
      args: ['--yolo'],
      stdin: PROMPT,
      promptFile: null,
    });
    expect(() => build('gemini', true)).toThrow('cannot resume');
  });

  it('opencode: the prompt as an argument, --session to resume', () => {
    expect(build('opencode', false, null)).toEqual({
      file: 'opencode',
      args: ['run', '--format', 'json', PROMPT],
      stdin: null,
      promptFile: null,
    });
    expect(build('opencode', true, 'ses_1')).toEqual({
      file: 'opencode',
      args: ['run', '--format', 'json', '--session', 'ses_1', PROMPT],
      stdin: null,
      promptFile: null,
    });
  });

  it('custom: placeholders inside arguments, resume template', () => {
    const preset = resolveCliPreset('custom', {
      start: ['my-agent', '--task={prompt}', '--id', '{sessionId}'],
      resume: ['my-agent', '--continue={sessionId}', '--task-file', '{promptFile}'],
      sessionId: { from: 'assigned' },
    });
    const base = { preset, prompt: 'do it', sessionId: 'abc', promptFilePath: FILE };
    expect(buildCliCommand({ ...base, resume: false })).toEqual({
      file: 'my-agent',
      args: ['--task=do it', '--id', 'abc'],
      stdin: null,
      promptFile: null,
    });
    expect(buildCliCommand({ ...base, resume: true })).toEqual({
      file: 'my-agent',
      args: ['--continue=abc', '--task-file', FILE],
      stdin: null,
      promptFile: { path: FILE, content: 'do it' },
    });
  });

  it('the config accepts exactly these presets', () => {
    expect([...CLI_RUNTIME_PRESETS]).toEqual([...CLI_PRESET_NAMES]);
  });

  it('every built-in preset builds a start command', () => {
    for (const name of Object.keys(CLI_PRESETS)) {
      const command = build(name, false);
      expect(command.file).toBe(name);
      // The prompt reaches the agent exactly one way.
      const ways = [command.stdin !== null, command.promptFile !== null, command.args.includes(PROMPT)];
      expect(ways.filter(Boolean)).toHaveLength(1);
    }
  });
});

describe('buildCliCommand: limits and errors', () => {
  it('replaces the program with the given words (a wrapper or an absolute path)', () => {
    const command = buildCliCommand({
      preset: resolveCliPreset('gemini'),
      prompt: 'x',
      sessionId: null,
      resume: false,
      promptFilePath: FILE,
      program: ['node', '/opt/fake-agent.js'],
    });
    expect([command.file, ...command.args]).toEqual(['node', '/opt/fake-agent.js', '--yolo']);
  });

  it('refuses a prompt longer than one argument can hold, saying so', () => {
    expect(() =>
      buildCliCommand({
        preset: resolveCliPreset('opencode'),
        prompt: 'x'.repeat(MAX_ARGUMENT_BYTES + 1),
        sessionId: null,
        resume: false,
        promptFilePath: FILE,
      }),
    ).toThrow(/the prompt is 131073 bytes, more than one command-line argument can hold/);
  });

  it('needs a session id where the template uses one', () => {
    expect(() => build('claude', false, null)).toThrow('needs a session id');
  });

  it('names the field of a bad custom preset and the known presets for a bad name', () => {
    expect(() => resolveCliPreset('custom', { start: [], resume: null, sessionId: { from: 'x' } })).toThrow(
      /invalid custom CLI preset: start: expected the program and its arguments; sessionId.from: /,
    );
    expect(() => resolveCliPreset('cursor')).toThrow(
      'unknown CLI preset "cursor"; expected one of claude, codex, aider, gemini, opencode, custom',
    );
  });
});
