import type { Command } from 'commander';
import { messageOf } from '../../shared/message-of.ts';

/** Most stdin accepted by `flotilla hook pre-tool-use` (Claude Code sends a few KiB). */
const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/**
 * `flotilla hook pre-tool-use`: a Claude Code PreToolUse command hook. Reads the hook JSON on stdin and
 * answers with Claude Code's exit-code protocol: 0 allow, 2 block (reason on stderr). Malformed input is a
 * clear error with exit 1, never 0. Bash goes through the bash validator; the file tools (Read, Write, Edit,
 * Glob, Grep, …) through the path guard with the hook's `cwd` as the working tree; other tools are allowed.
 */
export function registerHookCommand(program: Command): void {
  const hook = program
    .command('hook')
    .description('hooks for interactive Claude Code (.claude/settings.json)');
  hook
    .command('pre-tool-use')
    .description(
      'PreToolUse hook: validate Bash commands and file-tool paths read as JSON from stdin (exit 0 allow, 2 block)',
    )
    .action(async () => {
      process.exitCode = await runPreToolUseHook();
    });
}

async function runPreToolUseHook(): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`flotilla hook pre-tool-use: ${message}\n`);
    return 1;
  };
  if (process.stdin.isTTY) return fail('expects the PreToolUse hook JSON on standard input');
  let text: string;
  try {
    text = await readStdin();
  } catch (error) {
    return fail(`could not read standard input (${messageOf(error)})`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return fail(`standard input is not valid JSON (${messageOf(error)})`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return fail('standard input must be a JSON object with tool_name and tool_input');
  }
  const { tool_name: toolName, tool_input: toolInput, cwd } = input as Record<string, unknown>;
  if (typeof toolName !== 'string') return fail("the hook JSON has no string 'tool_name'");
  if (toolInput === null || typeof toolInput !== 'object' || Array.isArray(toolInput)) {
    return fail("the hook JSON has no object 'tool_input'");
  }
  if (toolName !== 'Bash') {
    const { createPathGuardHook } = await import('../../guards/path-guard/index.ts');
    const root = typeof cwd === 'string' && cwd !== '' ? cwd : process.cwd();
    const verdict = await createPathGuardHook({ root, writable: true })({
      tool_name: toolName,
      tool_input: toolInput as Record<string, unknown>,
      cwd: root,
    });
    return reportDecision(verdict);
  }
  // Loaded on demand: the shell parser takes ~0.3 s to load, which the other commands do not pay.
  const { createBashValidatorHook } = await import('../../guards/bash-validator/index.ts');
  const decision = await createBashValidatorHook()({
    tool_name: toolName,
    tool_input: toolInput as Record<string, unknown>,
  });
  return reportDecision(decision);
}

function reportDecision(decision: { decision: 'block'; reason: string } | Record<string, never>): number {
  if ('decision' in decision && decision.decision === 'block') {
    process.stderr.write(`${decision.reason}\n`);
    return 2;
  }
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new Error(`more than ${MAX_STDIN_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
