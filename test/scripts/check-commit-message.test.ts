import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'check-commit-message.js');
const HOOK = join(import.meta.dirname, '..', '..', 'scripts', 'git-hooks', 'commit-msg');

const repos: TempGitRepo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.cleanup();
});

async function newRepo(): Promise<TempGitRepo> {
  const repo = await createTempGitRepo();
  repos.push(repo);
  return repo;
}

/** Runs the script (the repository's copy when it has one) in `cwd`; exit code and both outputs. */
function check(cwd: string, args: string[], script = SCRIPT) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `count` lines of text, a change of that many lines. */
const lines = (count: number) =>
  `${Array.from({ length: count }, (_, index) => `line ${index}`).join('\n')}\n`;

/** Commits `files` with `message` (subject and body as given), as a person would. */
async function commit(repo: TempGitRepo, message: string, files: Record<string, string>): Promise<string> {
  await repo.write(files);
  await repo.git(['add', '-A']);
  await repo.git(['commit', '--quiet', '-m', message]);
  return (await repo.git(['rev-parse', '--short=8', 'HEAD'])).trim();
}

/** Adds the checker to the repository: the rules hold from this commit on. */
async function addChecker(repo: TempGitRepo): Promise<string> {
  await mkdir(join(repo.root, 'scripts'), { recursive: true });
  await copyFile(SCRIPT, join(repo.root, 'scripts', 'check-commit-message.js'));
  await repo.git(['add', '-A']);
  await repo.git(['commit', '--quiet', '-m', 'Add the commit message check', '-m', 'Why: rules.']);
  return join(repo.root, 'scripts', 'check-commit-message.js');
}

describe('check-commit-message as the commit-msg hook', () => {
  /** Stages `changed` lines and checks `message` as git's hook would get it. */
  async function hook(message: string, changed = 1) {
    const repo = await newRepo();
    await repo.write({ 'file.txt': lines(changed) });
    await repo.git(['add', '-A']);
    await writeFile(join(repo.root, '.git', 'COMMIT_EDITMSG'), message);
    return check(repo.root, ['.git/COMMIT_EDITMSG']);
  }

  it('accepts a subject of 72 characters and refuses one of 73, saying how long it is', async () => {
    expect((await hook(`${'x'.repeat(72)}\n`)).code).toBe(0);
    const refused = await hook(`${'x'.repeat(73)}\n`);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('the subject has 73 characters; at most 72');
  });

  it('needs a body when more than 50 lines changed, not when 50 did', async () => {
    expect((await hook('Small change\n', 50)).code).toBe(0);
    const refused = await hook('Big change\n', 51);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('the change has 51 changed lines (more than 50) and no body');
    expect((await hook('Big change\n\nWhy it was needed, and the numbers.\n', 51)).code).toBe(0);
  });

  it("ignores git's comment lines and everything below the scissors line", async () => {
    const message = [
      'Big change',
      '# Please enter the commit message for your changes.',
      '',
      'The reason.',
      '# ------------------------ >8 ------------------------',
      `diff --git a/x b/x\n${'+'.repeat(100)}`,
    ].join('\n');
    expect((await hook(message, 60)).code).toBe(0);
    expect((await hook('Big change\n# only a comment\n', 60)).code).toBe(1);
  });

  it('refuses an empty message and a second line that is not blank', async () => {
    expect((await hook('# nothing but comments\n')).output).toContain('the message is empty');
    expect((await hook('Subject\nbody right below\n')).output).toContain('the second line must be blank');
  });

  it('runs from the installed hook (core.hooksPath) and stops a bad commit', async () => {
    const repo = await newRepo();
    await addChecker(repo); // the hook runs the repository's own copy
    await repo.git(['config', 'core.hooksPath', join(HOOK, '..')]);
    await repo.write({ 'file.txt': lines(80) });
    await repo.git(['add', '-A']);
    await expect(repo.git(['commit', '--quiet', '-m', 'No body for eighty lines'])).rejects.toThrow(
      /80 changed lines/,
    );
    await repo.git(['commit', '--quiet', '-m', 'Eighty lines', '-m', 'Because.']);
  });
});

describe('check-commit-message --branch (npm run lint)', () => {
  it('without a remote, checks the latest commits since the checker was added, not older history', async () => {
    const repo = await newRepo();
    await commit(repo, `${'Old history written before the rules'.padEnd(80, '.')}`, { 'old.txt': lines(90) });
    const script = await addChecker(repo);
    await commit(repo, 'Small fix', { 'a.txt': lines(3) });
    expect(check(repo.root, ['--branch'], script)).toEqual({
      code: 0,
      output: 'check-commit-message: 2 commit(s) checked\n',
    });

    const bad = await commit(repo, 'A large change without a word of why', { 'b.txt': lines(70) });
    const refused = check(repo.root, ['--branch'], script);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`${bad} A large change without a word of why`);
    expect(refused.output).toContain('70 changed lines');
  });

  it('with origin/main, checks only the commits of the branch since it left origin/main', async () => {
    const origin = await newRepo();
    await commit(origin, 'Base', { 'base.txt': 'base\n' });
    const script = await addChecker(origin);
    // On main after the checker: a bad commit the branch does not own.
    await commit(origin, 'Main grew a lot without saying why', { 'main.txt': lines(60) });
    const repo = await newRepo();
    await repo.git(['remote', 'add', 'origin', origin.root]);
    await repo.git(['fetch', '--quiet', 'origin', 'main']);
    await repo.git(['checkout', '--quiet', '-b', 'feature', 'origin/main']);
    await commit(repo, 'Feature', { 'feature.txt': lines(60) }).then(() =>
      repo.git(['commit', '--quiet', '--amend', '-m', 'Feature', '-m', 'Why and how much.']),
    );
    const ownScript = join(repo.root, 'scripts', 'check-commit-message.js');
    expect(script).not.toBe(ownScript);
    expect(check(repo.root, ['--branch'], ownScript)).toEqual({
      code: 0,
      output: 'check-commit-message: 1 commit(s) checked\n',
    });
    await commit(repo, `${'y'.repeat(73)}`, { 'more.txt': 'more\n' });
    expect(check(repo.root, ['--branch'], ownScript).output).toContain('the subject has 73 characters');
  });

  it('passes outside a git repository (an unpacked tarball has no commits) and in an empty one', async () => {
    const repo = await newRepo();
    expect(check(repo.root, ['--branch']).code).toBe(0);
    const outside = check(join(repo.root, '..'), ['--branch']);
    expect(outside.code).toBe(0);
  });

  it('says how to use it when the arguments are wrong', () => {
    const result = check(process.cwd(), ['--bogus', 'x']);
    expect(result.code).toBe(2);
    expect(result.output).toContain('usage: check-commit-message.js');
  });
});
