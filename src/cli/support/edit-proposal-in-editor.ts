import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Proposal, ProposalEdit } from '../../domain/index.ts';
import { CliError } from './cli-error.ts';
import { buildProposalEditText, parseProposalEdit } from './parse-proposal-edit.ts';

/**
 * `flotilla proposals accept --edit` (issue #29): the proposal as YAML in `$VISUAL` / `$EDITOR` (default
 * `vi`), kept in `.flotilla/proposal-edits/<id>.yaml` until it is accepted — a malformed edit is reported
 * with its line and stays there, so the next `--edit` reopens it and nothing is lost. Returns the checked
 * edit; throws a CliError (exit 1) when it is malformed, the editor failed, or the file was emptied.
 */
export async function editProposalInEditor(
  proposal: Proposal,
  stateDir: string,
  repoRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ edit: ProposalEdit; done: () => Promise<void> }> {
  const dir = join(stateDir, 'proposal-edits');
  const file = join(dir, `${proposal.id}.yaml`);
  const shown = relative(repoRoot, file);
  await mkdir(dir, { recursive: true });
  if (!existsSync(file)) await writeFile(file, buildProposalEditText(proposal));
  const editor = env.VISUAL || env.EDITOR || 'vi';
  // Through the shell: editors are often configured with arguments (`code --wait`).
  const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit', env });
  if (run.error !== undefined || run.status !== 0) {
    throw new CliError(
      `the editor (${editor}) failed${run.status === null ? '' : ` with exit ${run.status}`}; your edit is kept in ${shown}`,
      { exitCode: 1 },
    );
  }
  const text = await readFile(file, 'utf8');
  if (text.split('\n').every((line) => line.trim() === '' || line.trimStart().startsWith('#'))) {
    await rm(file, { force: true });
    throw new CliError(`the edit is empty: proposal #${proposal.id} was not accepted`, { exitCode: 1 });
  }
  const parsed = parseProposalEdit(proposal.kind, text);
  if (!parsed.ok) {
    throw new CliError(
      `${shown}: ${parsed.error}. Nothing was accepted; your edit is kept there — run \`flotilla proposals accept ${proposal.id} --edit\` again to fix it`,
      { exitCode: 1 },
    );
  }
  return { edit: parsed.edit, done: () => rm(file, { force: true }) };
}
