import { describe, expect, it } from 'vitest';
import { bashValidatorRulesOverridesSchema } from './bash-validator-rules-schema.ts';
import { buildBashValidatorRules, getDefaultBashValidatorRules } from './build-bash-validator-rules.ts';
import { DEFAULT_ALLOWED_COMMANDS, PUBLISHED_BLOCK_PATTERNS } from './default-bash-validator-rules.ts';
import { describeBashValidatorRules } from './describe-bash-validator-rules.ts';
import { validateBashCommand } from './validate-bash-command.ts';

describe('default rules', () => {
  it('are the 39 published allowlist entries plus npm, npx and pnpm', () => {
    expect(DEFAULT_ALLOWED_COMMANDS).toHaveLength(42);
    expect(new Set(DEFAULT_ALLOWED_COMMANDS).size).toBe(42);
    for (const added of ['npm', 'npx', 'pnpm']) expect(DEFAULT_ALLOWED_COMMANDS).toContain(added);
  });

  it('are the 21 published block patterns, in order', () => {
    expect(PUBLISHED_BLOCK_PATTERNS).toHaveLength(21);
    expect(PUBLISHED_BLOCK_PATTERNS[0]).toBe('git\\s+reset\\s+--hard');
    expect(PUBLISHED_BLOCK_PATTERNS[20]).toBe('\\bkillall\\b');
    expect(getDefaultBashValidatorRules().blockPatterns.map((pattern) => pattern.source)).toEqual(
      PUBLISHED_BLOCK_PATTERNS,
    );
  });
});

describe('buildBashValidatorRules', () => {
  it('adds extra allowed commands', () => {
    const rules = buildBashValidatorRules({ extraAllowedCommands: ['cat', 'make'] });
    expect(validateBashCommand('cat README.md && make test', rules)).toEqual({ allowed: true });
    expect(validateBashCommand('cat README.md').allowed).toBe(false);
  });

  it('adds extra block patterns, checked on the masked text and on every simple command', () => {
    const rules = buildBashValidatorRules({ extraBlockPatterns: ['npm\\s+publish', '\\bvitest\\b'] });
    expect(validateBashCommand('npm publish', rules)).toEqual({
      allowed: false,
      reason: "Blocked: matches dangerous pattern 'npm\\s+publish'",
    });
    expect(validateBashCommand("echo 'vitest'", rules)).toEqual({ allowed: true });
    expect(validateBashCommand('npx vitest run', rules).allowed).toBe(false);
  });

  it('cannot allow what the blocklist or the structural rules block', () => {
    const rules = buildBashValidatorRules({ extraAllowedCommands: ['rm', 'eval'] });
    expect(validateBashCommand('rm x', rules).allowed).toBe(false);
    expect(validateBashCommand('eval ls', rules).allowed).toBe(false);
  });

  it('rejects invalid overrides', () => {
    expect(() => buildBashValidatorRules({ extraBlockPatterns: ['('] })).toThrow(/regular expression/);
    expect(() => buildBashValidatorRules({ extraAllowedCommands: ['two words'] })).toThrow();
    expect(bashValidatorRulesOverridesSchema.safeParse({ extra: 1 }).success).toBe(false);
  });

  it('describes the effective rules', () => {
    const description = describeBashValidatorRules(
      buildBashValidatorRules({ extraAllowedCommands: ['cat'] }),
    );
    expect(description.allowedCommands).toContain('cat');
    expect(description.blockPatterns).toHaveLength(21);
    expect(description.structuralRules.join('\n')).toMatch(/git push/);
  });
});
