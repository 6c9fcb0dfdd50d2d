import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { scaffoldRepository } from './init-command-scaffold.ts';

const execFileAsync = promisify(execFile);

interface InitOptions {
  force?: boolean;
}

/**
 * `flotilla init [--force]`: scaffolds the config, the three agent definitions, `.claude/CLAUDE.md`, an
 * example draft spec and the `.gitignore` entries at the root of the current git repository. One line per
 * file (created / kept / updated); existing files are kept unless --force. Exit 2 outside a git repository.
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'scaffold flotilla.config.json, .claude/agents/{planner,implementor,reviewer}.md, .claude/CLAUDE.md, docs/specs/ and .gitignore entries in the current git repository',
    )
    .option(
      '--force',
      'overwrite generated files that differ from the defaults (.claude/CLAUDE.md is never overwritten)',
    )
    .action(async (options: InitOptions) => {
      const repoRoot = await findRepoRoot(process.cwd());
      if (repoRoot === undefined) {
        process.stderr.write(
          `flotilla init: ${process.cwd()} is not inside a git repository; run 'git init' first, or cd into your repository\n`,
        );
        process.exitCode = 2;
        return;
      }
      const entries = await scaffoldRepository(repoRoot, { force: options.force === true });
      const width = Math.max(...entries.map((entry) => entry.action.length));
      for (const entry of entries) process.stdout.write(`${entry.action.padEnd(width)}  ${entry.path}\n`);
      process.stdout.write(
        `\nNext: write a spec in docs/specs/ with 'status: approved' and run 'flotilla run'. Every setting and its default: src/config/README.md in the Flotilla repository\n`,
      );
      process.exitCode = 0;
    });
}

async function findRepoRoot(cwd: string): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync('git', ['rev-parse', '--show-toplevel'], { cwd });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
