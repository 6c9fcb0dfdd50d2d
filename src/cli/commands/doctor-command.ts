import type { Command } from 'commander';
import type { DoctorCheck } from './doctor-command-checks.ts';

interface DoctorOptions {
  json?: boolean;
}

const MARK: Record<DoctorCheck['status'], string> = { ok: '✓', warn: '!', fail: '✗' };

/**
 * `flotilla doctor [--json]`: checks what `flotilla run` needs — the git repository, the config, the agent
 * files of the `claude`/`scripted` roles, the specs on the default branch, credentials for the roles whose
 * runtime is `claude`, codex for `codex` roles, each CLI role's program, the scripted scenario, the checks
 * command — and prints one line per check (✓ fine, ! works but worth a look, ✗ blocks
 * `flotilla run`) with what to do under each problem. Exit 1 when any check fails, else 0. `--json`:
 * `{ ok, checks: [{ name, status, message, fix }] }`.
 */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'check what `flotilla run` needs (repository, config, agent files, specs, credentials, scenario, checks command)',
    )
    .option('--json', 'print { ok, checks: [{ name, status, message, fix }] }')
    .action(async (options: DoctorOptions) => {
      // Loaded on use: the checks reach every runtime (the codex SDK among them), which no other command needs.
      const { runDoctorChecks } = await import('./doctor-command-checks.ts');
      const checks = await runDoctorChecks({ cwd: process.cwd(), env: process.env });
      const ok = checks.every((check) => check.status !== 'fail');
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ok, checks }, null, 2)}\n`);
      } else {
        for (const check of checks) {
          process.stdout.write(`${MARK[check.status]} ${check.message}\n`);
          for (const line of check.fix) process.stdout.write(`    ${line}\n`);
        }
        process.stdout.write(
          ok ? '\nReady: `flotilla run`.\n' : '\nFix the ✗ lines above before `flotilla run`.\n',
        );
      }
      process.exitCode = ok ? 0 : 1;
    });
}
