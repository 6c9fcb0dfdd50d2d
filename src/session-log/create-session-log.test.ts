import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../logging/logger.ts';
import { createSessionLog, type SessionLogOptions } from './create-session-log.ts';
import { createSecretRedactor } from './redact-secrets.ts';
import type { SessionLogMessage } from './session-log-message.ts';

const SESSION_ID = '3f2a9c1e-7b4d-4e2a-9f00-123456789abc';
const START = Date.parse('2026-02-18T10:00:00.000Z');

/** A clock that advances one second per reading, so every line has its own stamp. */
function steppingClock(start = START) {
  let now = start - 1000;
  return {
    now: () => {
      now += 1000;
      return now;
    },
  };
}

const INIT: SessionLogMessage = {
  type: 'system',
  subtype: 'init',
  session_id: 'sdk-internal-id',
  model: 'claude-sonnet-4-5',
  cwd: '/repo/.worktrees/flotilla/12',
  tools: ['Read', 'Write', 'Bash', 'StructuredOutput'],
  permissionMode: 'bypassPermissions',
};
const ASSISTANT_TEXT: SessionLogMessage = {
  type: 'assistant',
  session_id: SESSION_ID,
  message: { role: 'assistant', content: [{ type: 'text', text: 'I will add the form.\nThen test it.' }] },
};
const ASSISTANT_TOOL: SessionLogMessage = {
  type: 'assistant',
  message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }] },
};
const TOOL_RESULT: SessionLogMessage = {
  type: 'user',
  message: {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'PASS src/a.test.ts\nTests: 3 passed' },
    ],
  },
};
const BLOCKED_RESULT: SessionLogMessage = {
  type: 'user',
  message: {
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        is_error: true,
        content: [
          { type: 'text', text: "PreToolUse:Bash hook error: Blocked: matches dangerous pattern 'rm -rf'" },
        ],
      },
    ],
  },
};
const RESULT: SessionLogMessage = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  duration_ms: 12_345,
  total_cost_usd: 0.01234,
  num_turns: 5,
  usage: { input_tokens: 1200, output_tokens: 340 },
  structured_output: { role: 'implementor', outcome: 'completed', summary: 'Added the form' },
};

describe('createSessionLog', () => {
  let logsDir: string;
  beforeEach(async () => {
    logsDir = join(await mkdtemp(join(tmpdir(), 'flotilla-logs-')), 'logs');
  });
  afterEach(async () => {
    await rm(join(logsDir, '..'), { recursive: true, force: true });
  });

  const create = (overrides: Partial<SessionLogOptions> = {}) => {
    const logger = createRecordingLogger();
    const log = createSessionLog({
      logsDir,
      enabled: true,
      sessionID: SESSION_ID,
      role: 'implementor',
      context: { workItemID: '12' },
      clock: steppingClock(),
      logger,
      redact: (text) => text,
      ...overrides,
    });
    return { log, logger };
  };

  it('names the file {logsDir}/{timestamp}-{role}-{workItemID}-{session id prefix}.log, known before anything is written', async () => {
    const { log } = create();
    expect(log.filePath).toBe(join(logsDir, `${START}-implementor-12-3f2a9c1e.log`));
    await expect(stat(logsDir)).rejects.toThrow();
  });

  it('names planner logs without a work item', () => {
    const { log } = create({ role: 'planner', context: { specPaths: ['docs/specs/a.md'] } });
    expect(log.filePath).toBe(join(logsDir, `${START}-planner-3f2a9c1e.log`));
  });

  it('writes the header on the first message, then one entry per message, then the footer', async () => {
    const { log } = create();
    for (const message of [INIT, ASSISTANT_TEXT, ASSISTANT_TOOL, TOOL_RESULT, BLOCKED_RESULT, RESULT]) {
      log.record(message);
    }
    log.record({ type: 'stream_event', event: { type: 'content_block_delta' } });
    await log.finish('completed');
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript).toBe(
      [
        '=== Agent Session ===',
        'Type: implementor',
        `Session ID: ${SESSION_ID}`,
        'Issue: #12',
        'Started: 2026-02-18T10:00:01.000Z',
        'Session: 1',
        '',
        '=== Messages ===',
        '',
        '[10:00:02] SYSTEM init',
        '  Model: claude-sonnet-4-5',
        '  CWD: /repo/.worktrees/flotilla/12',
        '  Tools: Read, Write, Bash, StructuredOutput',
        '[10:00:03] ASSISTANT',
        '  I will add the form.',
        '  Then test it.',
        '[10:00:04] ASSISTANT [tool_use] Bash',
        '  command: npm test',
        '[10:00:05] USER [tool_result] ok',
        '  PASS src/a.test.ts',
        '  Tests: 3 passed',
        '[10:00:06] USER [tool_result] error',
        "  PreToolUse:Bash hook error: Blocked: matches dangerous pattern 'rm -rf'",
        '[10:00:07] RESULT success',
        '  Duration: 12.3s',
        '  Cost: $0.0123',
        '  Turns: 5',
        '  Tokens: 1200 in / 340 out',
        '  Structured output: {"role":"implementor","outcome":"completed","summary":"Added the form"}',
        '',
        '=== Session End ===',
        'Outcome: completed',
        'Finished: 2026-02-18T10:00:09.000Z',
        '',
      ].join('\n'),
    );
  });

  it("writes Flotilla's own notes in order with the messages, continuation lines indented", async () => {
    const { log } = create();
    log.record(INIT);
    log.note('validation failed: npm test (exited with code 1)\nFAIL a.test.js');
    log.record(ASSISTANT_TEXT);
    await log.finish('completed');
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript).toContain(
      [
        '  Tools: Read, Write, Bash, StructuredOutput',
        '[10:00:03] FLOTILLA validation failed: npm test (exited with code 1)',
        '  FAIL a.test.js',
        '[10:00:04] ASSISTANT',
      ].join('\n'),
    );
  });

  it("puts the engine's session id in the header, not the SDK's", async () => {
    const { log } = create();
    log.record(INIT);
    await log.finish('completed');
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript).toContain(`Session ID: ${SESSION_ID}\n`);
    expect(transcript).not.toContain('sdk-internal-id');
  });

  it('describes the planner by its spec paths and the reviewer by work item and revision', async () => {
    const planner = create({
      role: 'planner',
      context: { specPaths: ['docs/specs/a.md', 'docs/specs/b.md'] },
    }).log;
    await planner.finish('completed');
    expect(await readFile(planner.filePath ?? '', 'utf8')).toContain(
      'Type: planner\nSession ID: 3f2a9c1e-7b4d-4e2a-9f00-123456789abc\nSpec Paths: docs/specs/a.md, docs/specs/b.md\nStarted:',
    );
    const reviewer = create({
      role: 'reviewer',
      sessionID: 'ffffffff-0000',
      context: { workItemID: '12', revisionID: '40' },
    }).log;
    await reviewer.finish('completed');
    expect(await readFile(reviewer.filePath ?? '', 'utf8')).toContain('Issue: #12\nRevision: #40\nStarted:');
  });

  it.each(['completed', 'failed', 'cancelled', 'timed-out'] as const)(
    'states the outcome %s in the footer',
    async (outcome) => {
      const { log } = create();
      log.record(INIT);
      await log.finish(outcome);
      expect(await readFile(log.filePath ?? '', 'utf8')).toMatch(
        new RegExp(`\\n=== Session End ===\\nOutcome: ${outcome}\\nFinished: [0-9T:.-]+Z\\n$`),
      );
    },
  );

  it('adds the failure detail to the footer', async () => {
    const { log } = create();
    await log.finish('failed', 'Invalid implementor output: outcome: Invalid option\nsecond line');
    expect(await readFile(log.filePath ?? '', 'utf8')).toContain(
      'Outcome: failed\nDetail: Invalid implementor output: outcome: Invalid option\n  second line\nFinished:',
    );
  });

  it('stops at its size cap with one truncation line, and still writes the footer saying how much was left out', async () => {
    const { log } = create({ maxBytes: 2_000 });
    for (let index = 0; index < 40; index += 1) log.note(`line ${index} ${'x'.repeat(60)}`);
    await log.finish('completed');
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    const [kept = '', footer = ''] = transcript.split('\n=== Session End ===\n');
    expect(Buffer.byteLength(`${kept}\n`)).toBeLessThanOrEqual(2_000 + 200);
    expect(kept).toContain('FLOTILLA line 0 ');
    expect(kept).not.toContain('FLOTILLA line 39 ');
    expect(kept.match(/\[output truncated\] the transcript reached its cap of 2000 bytes/g)).toHaveLength(1);
    expect(kept.trimEnd().endsWith('later messages are not written')).toBe(true);
    expect(footer).toMatch(
      /^Outcome: completed\nTruncated: \d+ bytes of later messages not written\nFinished: /,
    );
  });

  it('leaves a transcript (header and footer) for a session that failed before its first message', async () => {
    const { log } = create();
    await log.finish('failed', 'claude exited with code 1');
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript.startsWith('=== Agent Session ===\nType: implementor\n')).toBe(true);
    expect(transcript).toContain('=== Messages ===\n\n\n=== Session End ===\nOutcome: failed\n');
  });

  it('ignores messages after the end, and a second finish', async () => {
    const { log } = create();
    log.record(INIT);
    const first = log.finish('cancelled');
    const second = log.finish('completed');
    log.record(ASSISTANT_TEXT);
    await Promise.all([first, second]);
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript).not.toContain('ASSISTANT');
    expect(transcript.match(/Outcome:/g)).toEqual(['Outcome:']);
    expect(transcript).toContain('Outcome: cancelled');
  });

  it('writes nothing and returns no path when disabled', async () => {
    const { log } = create({ enabled: false });
    expect(log.filePath).toBeNull();
    log.record(INIT);
    await log.finish('completed');
    await expect(stat(logsDir)).rejects.toThrow();
  });

  it('never throws when the log directory cannot be created: it warns and disables the log', async () => {
    await writeFile(join(logsDir, '..', 'blocker'), 'a file where a directory should be');
    const { log, logger } = create({ logsDir: join(logsDir, '..', 'blocker', 'logs') });
    expect(() => log.record(INIT)).not.toThrow();
    await expect(log.finish('completed')).resolves.toBeUndefined();
    const warnings = logger.records.filter((record) => record.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('logging disabled for this session');
  });

  it('stops writing after a write fails mid-session, warns once, and keeps the partial file path', async () => {
    const { log, logger } = create();
    log.record(INIT);
    await log.flush();
    const written = await readFile(log.filePath ?? '', 'utf8');
    // Replace the directory with a file: every later append fails.
    await rm(logsDir, { recursive: true, force: true });
    await writeFile(logsDir, 'not a directory');
    log.record(ASSISTANT_TEXT);
    log.record(ASSISTANT_TOOL);
    await expect(log.finish('completed')).resolves.toBeUndefined();
    expect(written).toContain('SYSTEM init');
    expect(log.filePath).toBe(join(logsDir, `${START}-implementor-12-3f2a9c1e.log`));
    expect(logger.records.filter((record) => record.level === 'warn')).toHaveLength(1);
  });

  it('survives a logger that throws while reporting a write failure', async () => {
    const throwingLogger = {
      ...createRecordingLogger(),
      warn: () => {
        throw new Error('logger broke');
      },
    };
    await writeFile(join(logsDir, '..', 'blocker'), 'x');
    const log = createSessionLog({
      logsDir: join(logsDir, '..', 'blocker', 'logs'),
      enabled: true,
      sessionID: SESSION_ID,
      role: 'planner',
      context: { specPaths: [] },
      logger: throwingLogger,
    });
    log.record(INIT);
    await expect(log.finish('failed')).resolves.toBeUndefined();
  });

  it('redacts secret environment values from every line', async () => {
    const secret = 'sk-ant-api03-very-secret-value';
    const { log } = create({ redact: createSecretRedactor({ ANTHROPIC_API_KEY: secret, HOME: '/root' }) });
    log.record({
      type: 'assistant',
      message: { content: [{ type: 'text', text: `The key is ${secret}, home /root` }] },
    });
    log.record({
      type: 'user',
      message: { content: [{ type: 'tool_result', content: `export ANTHROPIC_API_KEY=${secret}` }] },
    });
    log.record({
      type: 'assistant',
      message: {
        content: [{ type: 'tool_use', name: 'Bash', input: { command: `curl -H "x-api-key: ${secret}" x` } }],
      },
    });
    await log.finish('failed', `leaked ${secret}`);
    const transcript = await readFile(log.filePath ?? '', 'utf8');
    expect(transcript).not.toContain(secret);
    expect(transcript).toContain('The key is [REDACTED:ANTHROPIC_API_KEY], home /root');
    expect(transcript).toContain('export ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]');
    expect(transcript).toContain('leaked [REDACTED:ANTHROPIC_API_KEY]');
    expect(transcript).toContain('command: curl -H "x-api-key: [REDACTED:ANTHROPIC_API_KEY]" x');
  });

  it('redacts secrets of the process environment by default', async () => {
    const name = 'FLOTILLA_TEST_SESSION_LOG_TOKEN';
    process.env[name] = 'tok-1234567890-abcdef';
    try {
      const { log } = create({ redact: undefined });
      log.record({
        type: 'assistant',
        message: { content: [{ type: 'text', text: 'token tok-1234567890-abcdef' }] },
      });
      await log.finish('completed');
      expect(await readFile(log.filePath ?? '', 'utf8')).toContain(`token [REDACTED:${name}]`);
    } finally {
      delete process.env[name];
    }
  });

  it('keeps concurrent sessions in separate files, even in the same millisecond', async () => {
    const clock = { now: () => START };
    const logs = ['aaaaaaaa-1', 'bbbbbbbb-2'].map(
      (sessionID) => create({ sessionID, clock, context: { workItemID: '7' } }).log,
    );
    for (const log of logs) log.record(INIT);
    await Promise.all(logs.map((log) => log.finish('completed')));
    expect((await readdir(logsDir)).sort()).toEqual([
      `${START}-implementor-7-aaaaaaaa.log`,
      `${START}-implementor-7-bbbbbbbb.log`,
    ]);
  });

  it('creates the transcript readable by its owner only', async () => {
    const { log } = create();
    await log.finish('completed');
    expect((await stat(log.filePath ?? '')).mode & 0o777).toBe(0o600);
  });
});
