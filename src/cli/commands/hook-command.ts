import type { Command } from 'commander';
import { messageOf } from '../../shared/message-of.ts';

/** Most stdin accepted by `flotilla hook pre-tool-use` (Claude Code sends a few KiB). */
const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/** Claude Code's PreToolUse exit codes: 0 runs the tool, 2 blocks it. Any other code RUNS it too. */
const ALLOW = 0;
const BLOCK = 2;

/**
 * `flotilla hook pre-tool-use`: a Claude Code PreToolUse command hook. Reads the hook JSON on stdin and
 * answers with Claude Code's exit-code protocol: 0 allow, 2 block (reason on stderr). Every other exit code
 * is a non-blocking error after which Claude Code runs the tool, so every failure here — unreadable,
 * oversized or malformed input, an internal error — exits 2 with the reason. Bash goes through the bash
 * validator; every tool with path-like fields through the path guard, scoped to the working tree of the
 * hook's `cwd` and kept out of Flotilla's directories of its repository; tools that are not Claude Code's
 * own are refused unless named with `--allow-tool`.
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
    .option(
      '--allow-tool <name>',
      'also allow this tool (an MCP tool such as mcp__github__get_issue, or a prefix ending in * such as mcp__github__*); repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .action(async (options: { allowTool: string[] }) => {
      try {
        process.exitCode = await runPreToolUseHook(options.allowTool);
      } catch (error) {
        process.exitCode = block(`internal error (${messageOf(error)})`);
      }
    });
}

function block(message: string): number {
  process.stderr.write(`Blocked by flotilla hook pre-tool-use: ${message}\n`);
  return BLOCK;
}

/** The PreToolUse hook JSON on standard input, checked; or the exit code of the block that refused it. */
async function readHookInput(): Promise<
  { toolName: string; toolInput: Record<string, unknown>; cwd: string | undefined } | number
> {
  if (process.stdin.isTTY) return block('expects the PreToolUse hook JSON on standard input');
  let text: string;
  try {
    text = await readStdin();
  } catch (error) {
    return block(`could not read standard input (${messageOf(error)})`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return block(`standard input is not valid JSON (${messageOf(error)})`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return block('standard input must be a JSON object with tool_name and tool_input');
  }
  const { tool_name: toolName, tool_input: toolInput, cwd } = input as Record<string, unknown>;
  if (typeof toolName !== 'string' || toolName === '')
    return block("the hook JSON has no string 'tool_name'");
  if (toolInput === null || typeof toolInput !== 'object' || Array.isArray(toolInput)) {
    return block(`the hook JSON's 'tool_input' for ${toolName} is not an object`);
  }
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) {
    return block("the hook JSON's 'cwd' is not a path");
  }
  return { toolName, toolInput: toolInput as Record<string, unknown>, cwd };
}

async function runPreToolUseHook(extraTools: readonly string[]): Promise<number> {
  const badTool = extraTools.find((tool) => tool.trim() === '' || /^\*|^mcp__\*$/.test(tool));
  if (badTool !== undefined) {
    return block(
      `--allow-tool '${badTool}' names no tool (give a tool name or a prefix such as mcp__server__*)`,
    );
  }
  const input = await readHookInput();
  if (typeof input === 'number') return input;
  const { toolName, toolInput, cwd } = input;
  const sessionCwd = cwd ?? process.cwd();
  if (toolName === 'Bash') {
    // Loaded on demand: the shell parser takes ~0.3 s to load, which the other commands do not pay.
    const { createBashValidatorHook } = await import('../../guards/bash-validator/index.ts');
    const decision = await createBashValidatorHook()({
      tool_name: toolName,
      tool_input: toolInput,
      cwd: sessionCwd,
    });
    if (isBlock(decision)) return reportBlock(decision.reason);
  }
  const { createPathGuardHook, findCheckoutPaths, INTERACTIVE_TOOLS } = await import(
    '../../guards/path-guard/index.ts'
  );
  // Flotilla's state and the agents' worktrees belong to the main checkout, wherever the session runs.
  const checkout = findCheckoutPaths(sessionCwd);
  const verdict = await createPathGuardHook({
    root: checkout.workTree,
    writable: true,
    deniedPaths: checkout.deniedPaths,
    cwd: sessionCwd,
    allowedTools: [...INTERACTIVE_TOOLS, ...extraTools],
  })({ tool_name: toolName, tool_input: toolInput, cwd: sessionCwd });
  return isBlock(verdict) ? reportBlock(verdict.reason) : ALLOW;
}

function isBlock(
  decision: { decision: 'block'; reason: string } | Record<string, never>,
): decision is { decision: 'block'; reason: string } {
  return 'decision' in decision && decision.decision === 'block';
}

function reportBlock(reason: string): number {
  process.stderr.write(`${reason}\n`);
  return BLOCK;
}

/** Reads all of stdin; more than MAX_STDIN_BYTES is an error (the caller blocks) rather than a cut read. */
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
