import type { Command } from 'commander';
import { runDemo } from '../../demo/run-demo.ts';
import { silentLogger } from '../../logging/logger.ts';

/** `flotilla demo [--keep]`: the whole loop in a throwaway repository against the scripted model server. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the whole loop (plan → implement → review → approve) in a throwaway repo with the real Claude Agent SDK against the built-in scripted model server; no network, no API key',
    )
    .option('--keep', 'keep the demo repository (and transcripts) to inspect afterwards')
    .action(async (options: { keep?: boolean }) => {
      const outcome = await runDemo({
        keep: options.keep ?? false,
        print: (line) => process.stdout.write(`${line}\n`),
        logger: silentLogger,
      });
      if (!outcome.ok) {
        process.stderr.write('flotilla demo: the demo did not reach the expected end state (see above)\n');
        process.exitCode = 1;
      }
    });
}
