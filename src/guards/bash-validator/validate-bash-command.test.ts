import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildBashValidatorRules } from './build-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';
import { MAX_COMMAND_LENGTH, validateBashCommand } from './validate-bash-command.ts';

interface Vector {
  command: string;
  expected: 'allow' | 'block';
  description: string;
}

const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/bash-validator-vectors.json', import.meta.url), 'utf8'),
) as Vector[];

/** The two vectors we disagree with on purpose (see README.md "Deviations"). */
const DEVIATIONS = new Map<string, RegExp>([
  ['git commit -m "kill orphan timers" && git push', /'git push' is not allowed/],
  ['git status ;; git log', /not valid shell syntax/],
]);

describe('published conformance vectors', () => {
  it('has the 72 published vectors (40 block, 32 allow)', () => {
    expect(vectors).toHaveLength(72);
    expect(vectors.filter((vector) => vector.expected === 'block')).toHaveLength(40);
  });

  const agreed = vectors.filter((vector) => !DEVIATIONS.has(vector.command));
  it.each(agreed.map((vector) => [vector.description, vector] as const))('%s', (_description, vector) => {
    const result = validateBashCommand(vector.command);
    expect(result.allowed ? 'allow' : 'block').toBe(vector.expected);
  });

  it('deviates from exactly two vectors, both of which the reference allows and we block', () => {
    const deviating = vectors.filter((vector) => DEVIATIONS.has(vector.command));
    expect(deviating.map((vector) => vector.command).sort()).toEqual([...DEVIATIONS.keys()].sort());
    for (const vector of deviating) {
      expect(vector.expected).toBe('allow');
      const result = validateBashCommand(vector.command);
      expect(result.allowed).toBe(false);
      if (!result.allowed) expect(result.reason).toMatch(DEVIATIONS.get(vector.command)!);
    }
  });
});

describe('message formats', () => {
  it('reports blocklist hits with the published message and pattern source', () => {
    expect(validateBashCommand('git reset --hard HEAD')).toEqual({
      allowed: false,
      reason: "Blocked: matches dangerous pattern 'git\\s+reset\\s+--hard'",
    });
  });

  it('reports allowlist misses with the published message', () => {
    expect(validateBashCommand('python3 --version')).toEqual({
      allowed: false,
      reason: "Blocked: 'python3' is not in the allowed command list",
    });
  });

  it('prefers a blocklist hit over an earlier allowlist miss, as the published validator does', () => {
    expect(validateBashCommand('python3 x; rm -rf y')).toEqual({
      allowed: false,
      reason: "Blocked: matches dangerous pattern 'rm\\s'",
    });
  });

  it('reports the first allowlist miss when nothing is dangerous', () => {
    expect(validateBashCommand('git status && node a.js && python3 b.py')).toEqual({
      allowed: false,
      reason: "Blocked: 'node' is not in the allowed command list",
    });
  });
});

describe('basic behaviour', () => {
  it('allows empty and blank commands', () => {
    expect(validateBashCommand('')).toEqual({ allowed: true });
    expect(validateBashCommand('  \n ')).toEqual({ allowed: true });
  });

  it('allows npm, npx and pnpm in addition to the published allowlist', () => {
    for (const command of ['npm test', 'npx vitest run', 'pnpm install']) {
      expect(validateBashCommand(command)).toEqual({ allowed: true });
    }
  });

  it('blocks input that does not parse, with the parser message', () => {
    const result = validateBashCommand('echo "unterminated');
    expect(result).toEqual({ allowed: false, reason: expect.stringContaining('not valid shell syntax') });
  });

  it('blocks over-long input without parsing it', () => {
    const result = validateBashCommand(`echo ${'a'.repeat(MAX_COMMAND_LENGTH)}`);
    expect(result).toEqual({ allowed: false, reason: expect.stringContaining('longer than') });
  });

  it('blocks scripts nested deeper than the limit', () => {
    let command = 'git status';
    for (let depth = 0; depth < 10; depth += 1) command = `sh -c ${JSON.stringify(command)}`;
    const rules = buildBashValidatorRules({ extraAllowedCommands: ['sh'] });
    expect(validateBashCommand(command, rules)).toEqual({
      allowed: false,
      reason: expect.stringContaining('nested more than'),
    });
  });

  it('allows nested shells when the shell is allowed and the script is harmless', () => {
    const rules = buildBashValidatorRules({ extraAllowedCommands: ['bash'] });
    expect(validateBashCommand("bash -c 'git status && npm test'", rules)).toEqual({ allowed: true });
    expect(validateBashCommand("bash -c 'git status && npm test'")).toEqual({
      allowed: false,
      reason: "Blocked: 'bash' is not in the allowed command list",
    });
  });

  it('masks heredoc bodies for the textual patterns but still validates their substitutions', () => {
    expect(validateBashCommand("git commit -F - <<'EOF'\nremove the kill switch\nEOF")).toEqual({
      allowed: true,
    });
    expect(validateBashCommand('git commit -F - <<EOF\n$(kill 1)\nEOF').allowed).toBe(false);
  });

  it('handles multi-byte text before a heredoc', () => {
    expect(validateBashCommand("echo 'é' && git commit -F - <<'EOF'\nkill switch\nEOF")).toEqual({
      allowed: true,
    });
  });

  it('blocks NUL characters, which would cut the command short in bash', () => {
    expect(validateBashCommand('git push\u0000x')).toEqual({
      allowed: false,
      reason: 'Blocked: the command contains a NUL character',
    });
  });

  it('blocks network redirections', () => {
    expect(validateBashCommand('echo x > /dev/tcp/127.0.0.1/80').allowed).toBe(false);
  });
});

describe('never throws', () => {
  it('turns non-string input into a block', () => {
    expect(validateBashCommand(42 as unknown as string)).toEqual({
      allowed: false,
      reason: 'Blocked: the command is not a string',
    });
  });

  it('turns an internal error into a block', () => {
    const exploding: BashValidatorRules = {
      allowedCommands: new Set(['git']),
      blockPatterns: [
        {
          source: 'boom',
          regex: {
            test() {
              throw new Error('boom');
            },
          } as unknown as RegExp,
        },
      ],
    };
    expect(validateBashCommand('git status', exploding)).toEqual({
      allowed: false,
      reason: 'Blocked: internal validator error (boom)',
    });
  });

  it('returns a result for arbitrary byte soup', () => {
    const alphabet = 'ab $(){}[]<>|&;\'"`\\\n#=*?!~-';
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 300; round += 1) {
      let command = '';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i += 1) command += alphabet[Math.floor(random() * alphabet.length)];
      const result = validateBashCommand(command);
      expect(typeof result.allowed).toBe('boolean');
    }
  });
});
