import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { buildSignalInstructions } from './build-signal-instructions.ts';
import { parseAgentSignal, readAgentSignal, SIGNAL_FILE } from './read-agent-signal.ts';

describe('parseAgentSignal', () => {
  it('accepts the three statuses', () => {
    expect(parseAgentSignal('{"status":"done","result":{"outcome":"completed"}}')).toEqual({
      kind: 'valid',
      signal: { status: 'done', result: { outcome: 'completed' } },
    });
    expect(parseAgentSignal('{"status":"questions","questions":["Which API?"]}').kind).toBe('valid');
    expect(parseAgentSignal('{"status":"error","error":"no access"}').kind).toBe('valid');
  });

  it('names the field and what was expected', () => {
    expect(parseAgentSignal('{"status":"done","result":"yes"}')).toEqual({
      kind: 'invalid',
      error: `${SIGNAL_FILE} is invalid: result: Invalid input: expected record, received string`,
    });
    expect(parseAgentSignal('{"status":"questions","questions":[""]}')).toMatchObject({
      kind: 'invalid',
      error: expect.stringContaining('questions[0]: '),
    });
    expect(parseAgentSignal('{"status":"finished"}')).toMatchObject({
      kind: 'invalid',
      error: expect.stringContaining('status: '),
    });
    expect(parseAgentSignal('{"status": done}')).toMatchObject({
      kind: 'invalid',
      error: expect.stringMatching(/^\.flotilla\/signal\.json is not valid JSON \(/),
    });
  });
});

describe('readAgentSignal', () => {
  let dir: ReturnType<typeof createTempDir> | undefined;
  afterEach(() => dir?.remove());

  it('tells a missing file from an invalid one', async () => {
    dir = createTempDir('flotilla-signal-');
    const { path } = dir;
    expect(await readAgentSignal(path)).toEqual({ kind: 'missing' });
    await mkdir(join(path, '.flotilla'));
    await writeFile(join(path, SIGNAL_FILE), '[]');
    expect(await readAgentSignal(path)).toMatchObject({ kind: 'invalid' });
  });
});

describe('buildSignalInstructions', () => {
  it("names the file, the statuses and the role's result schema", () => {
    const text = buildSignalInstructions('reviewer');
    expect(text).toContain(SIGNAL_FILE);
    expect(text).toContain('"status": "questions"');
    expect(text).toContain('"verdict"');
    expect(text).toContain('Do not change any files');
  });
});
