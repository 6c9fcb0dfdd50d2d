import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the SDK starts: the (sandboxed) codex command, its stderr also kept where the runtime reads it. */
interface LaunchCommand {
  file: string;
  args: readonly string[];
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Writes the script the SDK runs as `codexPathOverride`: it execs the launch command with the SDK's
 * arguments appended (the sandbox's invocation ends with the codex binary) and appends codex's stderr to
 * `stderrLog`, which the SDK otherwise keeps to itself and which is where a failing sandbox says why.
 */
export async function writeCodexLauncher(
  runDir: string,
  command: LaunchCommand,
  stderrLog: string,
): Promise<string> {
  const path = join(runDir, 'codex-launcher.sh');
  const words = [command.file, ...command.args].map(quote).join(' ');
  const schemaCopy = quote(join(runDir, 'output-schema.json'));
  const script = [
    '#!/bin/sh',
    // The SDK writes the output schema into Flotilla's temporary directory, which the sandbox's private
    // /tmp does not show: codex gets a copy in the run's directory instead.
    'prev=',
    'for arg do',
    '  shift',
    `  if [ "$prev" = --output-schema ]; then cp -- "$arg" ${schemaCopy} || exit 1; arg=${schemaCopy}; fi`,
    '  set -- "$@" "$arg"',
    '  prev=$arg',
    'done',
    `exec ${words} "$@" 2>>${quote(stderrLog)}`,
    '',
  ].join('\n');
  await writeFile(path, script, { mode: 0o700 });
  return path;
}

/**
 * Sandbox failures codex writes to its stderr. codex 0.163 with Debian's bubblewrap on PATH and its home under
 * the temporary directory logs "Refusing to create helper binaries under temporary dir", and then every command
 * fails with `bwrap: execvp codex-linux-sandbox: No such file or directory` — in the model's tool results
 * only: its events show no command at all (docs/sandbox-facts.md). So with its own sandbox and a bwrap on PATH
 * that refusal is fatal; without bwrap on PATH codex's bundled one runs the commands and it is only a warning.
 */
const SANDBOX_FAILURES = [/bwrap: [^\n]*/, /codex-linux-sandbox[^\n]*No such file[^\n]*/];
const HELPER_REFUSED = /Refusing to create helper binaries[^\n]*/;

export async function findCodexSandboxProblem(
  stderrLog: string,
  options: { ownSandboxWithSystemBwrap: boolean },
): Promise<string | null> {
  const text = await readFile(stderrLog, 'utf8').catch(() => '');
  const patterns = [...SANDBOX_FAILURES, ...(options.ownSandboxWithSystemBwrap ? [HELPER_REFUSED] : [])];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match !== null) return match[0].trim().slice(0, 500);
  }
  return null;
}

/** The last lines codex wrote to its stderr (at most 1,000 characters), for a failure message. */
export async function readStderrTail(stderrLog: string): Promise<string> {
  const text = await readFile(stderrLog, 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-5).join(' | ').slice(-1000);
}
