import { describe, expect, it } from 'vitest';
import { BYPASS_CORPUS, EVERYDAY_CORPUS } from './bash-validator-corpus.ts';
import { buildBashValidatorRules } from './build-bash-validator-rules.ts';
import { validateBashCommand } from './validate-bash-command.ts';

/**
 * Rules that allow every command name the bypass corpus uses. A bypass must still be blocked under them:
 * that proves the block comes from the blocklist or a structural rule, not from an allowlist miss that a
 * configuration change would remove.
 */
const PERMISSIVE = buildBashValidatorRules({
  extraAllowedCommands: [
    'rm',
    'sudo',
    '/bin/rm',
    '/usr/bin/sudo',
    './node_modules/.bin/../../../bin/rm',
    'rimraf',
    'kill',
    'eval',
    'source',
    '.',
    'bash',
    'sh',
    'zsh',
    'curl',
    'cat',
    'diff',
    'exec',
    'builtin',
    'nohup',
    'nice',
    'timeout',
    'stdbuf',
    'gawk',
    'f',
    'export',
  ],
});

describe('bypass corpus: dangerous commands are blocked', () => {
  it('has at least 60 entries', () => {
    expect(BYPASS_CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(BYPASS_CORPUS.map((entry) => [entry.why, entry.command] as const))('%s: %j', (_why, command) => {
    const result = validateBashCommand(command);
    expect(result.allowed).toBe(false);
  });

  it.each(BYPASS_CORPUS.map((entry) => [entry.why, entry.command] as const))(
    '%s: still blocked when every command name is allowed: %j',
    (_why, command) => {
      const result = validateBashCommand(command, PERMISSIVE);
      expect(result).toEqual({
        allowed: false,
        reason: expect.not.stringMatching(/not in the allowed command list/),
      });
    },
  );
});

describe('everyday development commands are allowed', () => {
  it('has at least 40 entries', () => {
    expect(EVERYDAY_CORPUS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(EVERYDAY_CORPUS.map((entry) => [entry.why, entry.command] as const))('%s: %j', (_why, command) => {
    expect(validateBashCommand(command)).toEqual({ allowed: true });
  });
});
