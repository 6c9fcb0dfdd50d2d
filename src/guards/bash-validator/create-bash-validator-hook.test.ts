import { describe, expect, it } from 'vitest';
import { createBashValidatorHook } from './create-bash-validator-hook.ts';
import type { BashValidatorRules } from './types.ts';

const hook = createBashValidatorHook();

describe('createBashValidatorHook', () => {
  it('allows an allowed Bash command with {}', async () => {
    await expect(hook({ tool_name: 'Bash', tool_input: { command: 'git status' } })).resolves.toEqual({});
  });

  it('blocks a dangerous Bash command with decision block and the reason', async () => {
    await expect(hook({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } })).resolves.toEqual({
      decision: 'block',
      reason: "Blocked: matches dangerous pattern 'rm\\s'",
    });
  });

  it('leaves other tools alone', async () => {
    await expect(hook({ tool_name: 'Read', tool_input: { file_path: '/etc/passwd' } })).resolves.toEqual({});
  });

  it('blocks a Bash call without a command string (fail closed)', async () => {
    await expect(hook({ tool_name: 'Bash', tool_input: {} })).resolves.toEqual({
      decision: 'block',
      reason: 'Blocked: Bash tool input has no command string',
    });
    await expect(hook({ tool_name: 'Bash', tool_input: { command: ['rm'] } })).resolves.toMatchObject({
      decision: 'block',
    });
  });

  it('blocks malformed input instead of throwing', async () => {
    await expect(hook(null as never)).resolves.toMatchObject({ decision: 'block' });
    await expect(hook({ tool_name: 'Bash', tool_input: null } as never)).resolves.toMatchObject({
      decision: 'block',
    });
  });

  it('turns an internal error into a block, never a throw or undefined', async () => {
    const broken = {
      get allowedCommands(): never {
        throw new Error('broken rules');
      },
      blockPatterns: [],
    } as unknown as BashValidatorRules;
    const result = await createBashValidatorHook(broken)({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(result).toEqual({ decision: 'block', reason: expect.stringContaining('broken rules') });
  });
});
