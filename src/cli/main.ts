import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { messageOf } from '../shared/message-of.ts';
import { registerAnswerCommand } from './commands/answer-command.ts';
import { registerBashCheckCommand } from './commands/bash-check-command.ts';
import { registerBranchesCommand } from './commands/branches-command.ts';
import { registerBudgetCommand } from './commands/budget-command.ts';
import { registerChecksCommand } from './commands/checks-command.ts';
import { registerDemoCommand } from './commands/demo-command.ts';
import { registerDiffCommand } from './commands/diff-command.ts';
import { registerDoctorCommand } from './commands/doctor-command.ts';
import { registerGitHubCommand } from './commands/github-command.ts';
import { registerHookCommand } from './commands/hook-command.ts';
import { registerInitCommand } from './commands/init-command.ts';
import { registerLogsCommand } from './commands/logs-command.ts';
import { registerMergeCommand } from './commands/merge-command.ts';
import { registerReviewCommand } from './commands/review-command.ts';
import { registerRunCommand } from './commands/run-command.ts';
import { registerRunsCommand } from './commands/runs-command.ts';
import { registerStatsCommand } from './commands/stats-command.ts';
import { registerWorkCommand } from './commands/work-command.ts';
import { reportUnknownCommands } from './support/report-unknown-commands.ts';

/** Builds the `flotilla` command tree. Each subcommand registers itself from its own module. */
export function buildProgram(): Command {
  const program = new Command('flotilla')
    .description('Control plane for agentic software development')
    .version(readPackageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError();
  registerRunCommand(program);
  registerDemoCommand(program);
  registerBashCheckCommand(program);
  registerHookCommand(program);
  registerInitCommand(program);
  registerDoctorCommand(program);
  registerGitHubCommand(program);
  registerWorkCommand(program);
  registerAnswerCommand(program);
  registerRunsCommand(program);
  registerStatsCommand(program);
  registerBudgetCommand(program);
  registerLogsCommand(program);
  registerMergeCommand(program);
  registerDiffCommand(program);
  registerChecksCommand(program);
  registerReviewCommand(program);
  registerBranchesCommand(program);
  reportUnknownCommands(program);
  return program;
}

/** The installed package's version; package.json sits two levels up from both src/cli and dist/cli. */
function readPackageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Runs the CLI and resolves to the process exit code (0 success, 1 runtime failure, 2 usage error). */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`flotilla: ${messageOf(error)}\n`);
    return 1;
  }
}
