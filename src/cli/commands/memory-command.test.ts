/**
 * `flotilla memory show` and `flotilla memory edit` (issue #28 §2) on a real repository's `.flotilla/flotilla.db`:
 * what a memory shows, what an edit stores (a human's, redacted, newer), and the clear errors for a bad id, an
 * unknown memory and an empty or oversized text; without `--text`, the edit in `$EDITOR` (a small script here, as
 * for `proposals accept --edit`). (`list`, `export`, `forget` and `import` are exercised end to
 * end in test/cli/run-repository-memory.test.ts.)
 */
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { resolveFlotillaPaths } from '../../config/index.ts';
import { AGENT_NOTE_LIMITS, type Memory } from '../../domain/index.ts';
import { createMemoryRepository, openDatabase } from '../../storage/index.ts';
import { runFlotillaInProcess } from '../support/run-flotilla-in-process.ts';

let repo: TempGitRepo;
let memoryID: number;
const flotilla = (...args: string[]) => runFlotillaInProcess(repo.root, args);
const STORED_AT = Date.UTC(2026, 10, 20, 9, 30);
const TEXT = 'The greeting module is plain ESM.\nImport it with a .js extension.';
const SECRET_NAME = 'MEMORY_COMMAND_TEST_TOKEN';
const SECRET = 'memory-command-secret-4711-abcdef';

function storedMemory(id: number): Memory | null {
  const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
  try {
    return createMemoryRepository(db).get(id);
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# sample\n' });
  const db = openDatabase(resolveFlotillaPaths(repo.root).dbPath);
  try {
    memoryID = createMemoryRepository(db).upsert({
      topic: 'module format',
      text: TEXT,
      source: 'implementor',
      sessionID: 's-1',
      workItemID: '7',
      runtime: 'claude',
      at: STORED_AT,
    }).id;
  } finally {
    db.close();
  }
});
afterAll(() => repo.cleanup());

describe('flotilla memory show', () => {
  it('prints the memory whole: id, topic, who stored it on which item and when, then every line', async () => {
    const shown = await flotilla('memory', 'show', String(memoryID));
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(
      `${memoryID} module format (implementor on #7, 2026-11-20T09:30:00.000Z)\n\n${TEXT}\n`,
    );
    // `#<id>` names it too; --json is the stored record.
    const json = await flotilla('memory', 'show', `#${memoryID}`, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: memoryID,
      topic: 'module format',
      text: TEXT,
      source: 'implementor',
      workItemID: '7',
      createdAt: STORED_AT,
    });
  });

  it('refuses an id that is not a number (exit 2) and an unknown memory (exit 1)', async () => {
    const bad = await flotilla('memory', 'show', 'abc');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'abc' is not a memory id: expected a number from flotilla memory list");
    const unknown = await flotilla('memory', 'show', String(memoryID + 100));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`memory ${memoryID + 100} does not exist`);
    expect(unknown.stdout).toBe('');
  });
});

describe('flotilla memory edit', () => {
  it("replaces the text as a human's, with this environment's secrets redacted; show prints the new text", async () => {
    process.env[SECRET_NAME] = SECRET;
    try {
      const edited = await flotilla(
        'memory',
        'edit',
        String(memoryID),
        '--text',
        `  Use ESM. Token ${SECRET}  `,
      );
      expect(edited.stderr).toBe('');
      expect(edited.code).toBe(0);
      expect(edited.stdout).toBe(`memory ${memoryID} (module format) edited\n`);
    } finally {
      delete process.env[SECRET_NAME];
    }
    const stored = storedMemory(memoryID);
    expect(stored).toMatchObject({
      topic: 'module format',
      text: `Use ESM. Token [REDACTED:${SECRET_NAME}]`,
      source: 'human',
      createdAt: STORED_AT,
    });
    expect(stored?.updatedAt).toBeGreaterThan(STORED_AT);
    const shown = await flotilla('memory', 'show', String(memoryID));
    expect(shown.stdout).toMatch(new RegExp(`^${memoryID} module format \\(human on #7, \\d{4}-`));
    expect(shown.stdout).toContain(`\n\nUse ESM. Token [REDACTED:${SECRET_NAME}]\n`);
    expect(shown.stdout).not.toContain(SECRET);
  });

  it('refuses an empty or oversized text and an unknown memory, and leaves the memory as it was', async () => {
    const before = storedMemory(memoryID);
    const empty = await flotilla('memory', 'edit', String(memoryID), '--text', '   ');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--text: expected a non-empty text');
    const long = 'x'.repeat(AGENT_NOTE_LIMITS.memoryText + 1);
    const tooLong = await flotilla('memory', 'edit', String(memoryID), '--text', long);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain(`--text: at most ${AGENT_NOTE_LIMITS.memoryText} characters`);
    const unknown = await flotilla('memory', 'edit', String(memoryID + 100), '--text', 'new');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`memory ${memoryID + 100} does not exist`);
    expect(storedMemory(memoryID)).toEqual(before);
  });
});

describe('flotilla memory edit in $EDITOR (no --text)', () => {
  /** Runs `memory edit <id>` with $EDITOR a shell script doing `script` to the file given as "$1". */
  async function editWith(script: string) {
    const editor = join(repo.root, 'test-editor.sh');
    await writeFile(editor, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    const saved = { EDITOR: process.env.EDITOR, VISUAL: process.env.VISUAL };
    process.env.EDITOR = editor;
    delete process.env.VISUAL;
    try {
      return await flotilla('memory', 'edit', String(memoryID));
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }
  const editsDir = () => join(resolveFlotillaPaths(repo.root).stateDir, 'memory-edits');

  it("opens the current text; what the editor saves is stored as a human's, and the scratch file is removed", async () => {
    const before = storedMemory(memoryID);
    // The script checks it was given the current text, then appends a line.
    const edited = await editWith(
      `grep -q '^Use ESM. Token \\[REDACTED:${SECRET_NAME}\\]$' "$1" || exit 3\nprintf 'Run npm test first.\\n' >> "$1"`,
    );
    expect(edited.stderr).toBe('');
    expect(edited.code).toBe(0);
    expect(edited.stdout).toBe(`memory ${memoryID} (module format) edited\n`);
    expect(storedMemory(memoryID)).toMatchObject({
      text: `${before?.text}\nRun npm test first.`,
      source: 'human',
    });
    expect(existsSync(editsDir()) ? readdirSync(editsDir()) : []).toEqual([]);
  });

  it('leaves the memory as it was when the editor changes nothing, fails, or empties the file', async () => {
    const before = storedMemory(memoryID);
    const untouched = await editWith('true');
    expect(untouched.code).toBe(0);
    expect(untouched.stdout).toBe(`memory ${memoryID} (module format) unchanged\n`);
    const failed = await editWith('exit 4');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`failed with exit 4; memory ${memoryID} was not changed`);
    const emptied = await editWith(': > "$1"');
    expect(emptied.code).toBe(2);
    expect(emptied.stderr).toContain('the edited text (nothing was changed): expected a non-empty text');
    expect(storedMemory(memoryID)).toEqual(before);
    expect(existsSync(editsDir()) ? readdirSync(editsDir()) : []).toEqual([]);
  });
});
