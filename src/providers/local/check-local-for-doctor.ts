import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { messageOf } from '../../shared/message-of.ts';
import type { ProviderDoctorCheck as DoctorCheck, ProviderDoctorInput } from '../provider-descriptor.ts';
import { createGitSpecReader } from './git/create-git-spec-reader.ts';

const execFileAsync = promisify(execFile);
const ok = (name: string, message: string): DoctorCheck => ({ name, status: 'ok', message, fix: [] });

/**
 * `flotilla doctor` on the local provider: the specs on the default branch (`specs`) and the checks command
 * (`checks`). Never throws for a user problem.
 */
export const checkLocalForDoctor = {
  specs: checkSpecs,
  checks: checkChecksCommand,
};

async function checkSpecs(input: ProviderDoctorInput<undefined>): Promise<DoctorCheck> {
  const { repoRoot } = input;
  const where = `${input.specsDir}/ on ${input.defaultBranch}`;
  let specs: { frontmatterStatus: string }[];
  let problems: { filePath: string; message: string }[];
  try {
    ({ specs, problems } = await createGitSpecReader({
      repoRoot,
      defaultBranch: input.defaultBranch,
      specsDir: input.specsDir,
    }).listSpecs());
  } catch (error) {
    return {
      name: 'specs',
      status: 'fail',
      message: `cannot read specs from ${where}: ${messageOf(error)}`,
      fix: ['commit something on the default branch (specs are read from it, not from the working tree)'],
    };
  }
  const approved = specs.filter((spec) => spec.frontmatterStatus === 'approved').length;
  // The same words `flotilla run` records for them, so a broken spec is found here first.
  if (problems.length > 0) {
    return {
      name: 'specs',
      status: 'warn',
      message: `${where}: ${specs.length} spec(s), ${approved} approved, ${problems.length} with a problem (read as draft until fixed)`,
      fix: [
        ...problems.map((problem) => `${problem.filePath}: ${problem.message}`),
        'fix the frontmatter and commit it (git add, then git commit)',
      ],
    };
  }
  if (approved > 0) return ok('specs', `${where}: ${specs.length} spec(s), ${approved} approved`);
  return {
    name: 'specs',
    status: 'warn',
    message: `${where}: ${specs.length} spec(s), none approved — the planner has nothing to plan`,
    fix: [
      `write a spec in ${input.specsDir}/ with frontmatter 'status: approved' and commit it (git add, then git commit)`,
    ],
  };
}

async function checkChecksCommand(input: ProviderDoctorInput<undefined>): Promise<DoctorCheck> {
  const command = input.checks.command;
  if (command === null) {
    return {
      name: 'checks',
      status: 'warn',
      message: 'no checks command: every revision passes its checks',
      fix: ['set checks.command in flotilla.config.json (e.g. "npm test")'],
    };
  }
  // The first word that is not a variable assignment (`CI=1 npm test`).
  const program =
    command
      .trim()
      .split(/\s+/)
      .find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
  // `command -v` finds executables on PATH, shell builtins and paths, as the checks' shell will.
  if ((await findOnPath(input.repoRoot, program)) !== null) return ok('checks', `checks command: ${command}`);
  // Not a blocker — the loop runs — but every revision's checks would fail.
  return {
    name: 'checks',
    status: 'warn',
    message: `checks command "${command}": ${program} is not found, so every revision's checks would fail`,
    fix: [`install ${program}, or change checks.command in flotilla.config.json`],
  };
}

/** Where `command -v` finds the program (PATH, shell builtins, paths), or null. */
async function findOnPath(cwd: string, program: string): Promise<string | null> {
  if (program === '') return null;
  try {
    const { stdout } = await execFileAsync('/bin/sh', ['-c', 'command -v "$1"', 'sh', program], { cwd });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}
