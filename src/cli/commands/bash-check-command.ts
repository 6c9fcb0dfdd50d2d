import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ZodError } from 'zod';
import type { describeBashValidatorRules as DescribeRules } from '../../guards/bash-validator/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';
import { messageOf } from '../../shared/message-of.ts';

interface BashCheckOptions {
  printRules?: boolean;
  json?: boolean;
  allow: string[];
  blockPattern: string[];
  cwd?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * `flotilla bash-check -- <command>`: exit 0 when the agent bash validator allows the command, 2 when it
 * blocks it (reason on stderr). `--print-rules` shows the effective rules.
 */
export function registerBashCheckCommand(program: Command): void {
  program
    .command('bash-check')
    .description('check a command against the agent bash validator (exit 0 allowed, 2 blocked)')
    .argument(
      '[command...]',
      "the command, after '--' and quoted as one argument: bash-check -- 'git status'",
    )
    .option(
      '--print-rules',
      'print the effective rules (allowlist, block patterns, structural rules) and exit',
    )
    .option('--json', 'with --print-rules, print JSON')
    .option('--allow <command>', 'also allow this command name (repeatable)', collect, [])
    .option('--block-pattern <regex>', 'also block this regular expression (repeatable)', collect, [])
    .option(
      '--cwd <dir>',
      'judge as run from this directory: write targets are followed through symlinks and must stay in its working tree (as the hook does)',
    )
    .action(async (words: string[], options: BashCheckOptions) => {
      // Loaded on demand: the shell parser takes ~0.3 s to load, which the other commands do not pay.
      const {
        buildBashValidatorRules,
        createBashValidatorHook,
        describeBashValidatorRules,
        validateBashCommand,
      } = await import('../../guards/bash-validator/index.ts');
      let rules: ReturnType<typeof buildBashValidatorRules>;
      try {
        rules = buildBashValidatorRules({
          extraAllowedCommands: options.allow,
          extraBlockPatterns: options.blockPattern,
        });
      } catch (error) {
        process.stderr.write(`flotilla bash-check: invalid rule options: ${describeError(error)}\n`);
        process.exitCode = 2;
        return;
      }
      if (options.printRules) {
        process.stdout.write(formatRules(describeBashValidatorRules(rules), options.json === true));
        process.exitCode = 0;
        return;
      }
      if (words.length === 0) {
        process.stderr.write(
          "flotilla bash-check: give the command after '--', e.g. flotilla bash-check -- 'git status'\n",
        );
        process.exitCode = 2;
        return;
      }
      const reason = await findRefusal(
        { validateBashCommand, createBashValidatorHook },
        rules,
        words.join(' '),
        options.cwd,
      );
      if (reason === null) {
        process.stdout.write('allowed\n');
        process.exitCode = 0;
      } else {
        process.stderr.write(`${reason}\n`);
        process.exitCode = 2;
      }
    });
}

type BashValidator = typeof import('../../guards/bash-validator/index.ts');

/** Why the validator refuses the command (as the hook would, run from `cwd` when given); null: allowed. */
async function findRefusal(
  validator: Pick<BashValidator, 'validateBashCommand' | 'createBashValidatorHook'>,
  rules: ReturnType<BashValidator['buildBashValidatorRules']>,
  command: string,
  cwd: string | undefined,
): Promise<string | null> {
  if (cwd === undefined) {
    const result = validator.validateBashCommand(command, rules);
    return result.allowed ? null : result.reason;
  }
  const verdict = await validator.createBashValidatorHook(rules)({
    tool_name: 'Bash',
    tool_input: { command },
    cwd: resolve(cwd),
  });
  return 'reason' in verdict ? verdict.reason : null;
}

function formatRules(description: ReturnType<typeof DescribeRules>, json: boolean): string {
  if (json) return `${JSON.stringify(description, null, 2)}\n`;
  const lines = [
    `Allowed commands (${description.allowedCommands.length}; exact first word):`,
    `  ${description.allowedCommands.join(' ')}`,
    '',
    `Block patterns (${description.blockPatterns.length}; JavaScript regexes on the quote-masked text and on every simple command):`,
    ...description.blockPatterns.map((pattern) => `  ${pattern}`),
    '',
    'Structural rules (always on, not configurable):',
    ...description.structuralRules.map((rule) => `  - ${rule}`),
    '',
  ];
  return lines.join('\n');
}

function describeError(error: unknown): string {
  return error instanceof ZodError ? formatZodIssues(error.issues).join('; ') : messageOf(error);
}
