import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { messageOf } from '../shared/message-of.ts';
import { registerAgentCommand } from './commands/agent-command.ts';
import { registerAnswerCommand } from './commands/answer-command.ts';
import { registerBashCheckCommand } from './commands/bash-check-command.ts';
import { registerBranchesCommand } from './commands/branches-command.ts';
import { registerBudgetCommand } from './commands/budget-command.ts';
import { registerChecksCommand } from './commands/checks-command.ts';
import { registerConversationsCommand } from './commands/conversations-command.ts';
import { registerDemoCommand } from './commands/demo-command.ts';
import { registerDiffCommand } from './commands/diff-command.ts';
import { registerDoctorCommand } from './commands/doctor-command.ts';
import { registerGitHubCommand } from './commands/github-command.ts';
import { registerHookCommand } from './commands/hook-command.ts';
import { registerInitCommand } from './commands/init-command.ts';
import { registerLogsCommand } from './commands/logs-command.ts';
import { registerMemoryCommand } from './commands/memory-command.ts';
import { registerMergeCommand } from './commands/merge-command.ts';
import { registerPromptCommand } from './commands/prompt-command.ts';
import { registerProposalsCommand } from './commands/proposals-command.ts';
import { registerQuestionsCommand } from './commands/questions-command.ts';
import { registerQueueCommand } from './commands/queue-command.ts';
import { registerReviewCommand } from './commands/review-command.ts';
import { registerRunCommand } from './commands/run-command.ts';
import { registerRunsCommand } from './commands/runs-command.ts';
import { registerServeCommand } from './commands/serve-command.ts';
import { registerStatsCommand } from './commands/stats-command.ts';
import { registerWorkCommand } from './commands/work-command.ts';
import { registerWorkerCommand } from './commands/worker-command.ts';
import { registerWorkersCommand } from './commands/workers-command.ts';
import { reportUnknownCommands } from './support/report-unknown-commands.ts';
import { reportUsageErrors } from './support/report-usage-errors.ts';
import { watchClosedOutput } from './support/watch-closed-output.ts';

/** Builds the `flotilla` command tree. Each subcommand registers itself from its own module. */
export function buildProgram(): Command {
  const program = new Command('flotilla')
    .description('Control plane for agentic software development')
    .version(readPackageVersion(), '-V, --version', 'print the version')
    .exitOverride();
  // Listed in --help in groups, in the order a new user meets them.
  program.commandsGroup('Set up:');
  registerInitCommand(program);
  registerDoctorCommand(program);
  registerGitHubCommand(program);
  program.commandsGroup('Run:');
  registerRunCommand(program);
  registerDemoCommand(program);
  registerServeCommand(program);
  registerWorkerCommand(program);
  registerWorkersCommand(program);
  program.commandsGroup('Work items:');
  registerWorkCommand(program);
  registerAnswerCommand(program);
  registerProposalsCommand(program);
  registerQuestionsCommand(program);
  registerConversationsCommand(program);
  registerMemoryCommand(program);
  program.commandsGroup('Review and merge:');
  registerReviewCommand(program);
  registerDiffCommand(program);
  registerChecksCommand(program);
  registerMergeCommand(program);
  registerQueueCommand(program);
  registerBranchesCommand(program);
  program.commandsGroup('Inspect:');
  registerRunsCommand(program);
  registerLogsCommand(program);
  registerStatsCommand(program);
  registerBudgetCommand(program);
  registerPromptCommand(program);
  program.commandsGroup('Tools:');
  registerBashCheckCommand(program);
  registerHookCommand(program);
  registerAgentCommand(program);
  program.helpCommand(true);
  reportUnknownCommands(program);
  reportUsageErrors(program);
  return program;
}

/** The installed package's version; package.json sits two levels up from both src/cli and dist/cli. */
function readPackageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * Runs the CLI and resolves to the process exit code (0 success, 1 runtime failure, 2 usage error). A reader
 * that closes stdout early (`flotilla doctor | head -1`) ends nothing abruptly: the command finishes its work
 * with its output dropped, and the exit code is 0, as the reader asked for no more (git and gh do the same).
 */
export async function runCli(argv: string[]): Promise<number> {
  const stdout = watchClosedOutput(process.stdout);
  // `flotilla … 2>&1 | head -1` closes stderr too: nothing to report it on, nothing to crash over.
  watchClosedOutput(process.stderr);
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return stdout.closed() ? 0 : typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (stdout.closed()) return 0;
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`flotilla: ${messageOf(error)}\n`);
    return 1;
  }
}
