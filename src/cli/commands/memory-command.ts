import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { AGENT_NOTE_LIMITS, type Memory } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { editMemoryInEditor } from '../support/edit-memory-in-editor.ts';
import { formatMemoriesMarkdown, parseMemoriesMarkdown } from '../support/memory-markdown.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

function parseMemoryID(raw: string): number {
  const id = Number(raw.replace(/^#/, ''));
  if (!Number.isInteger(id) || id < 1)
    throw new CliError(`'${raw}' is not a memory id: expected a number from flotilla memory list`, {
      exitCode: 2,
    });
  return id;
}

/** `source` names where the text came from in errors: `--text`, or the editor's file. */
function checkText(text: string, source = '--text'): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new CliError(`${source}: expected a non-empty text`, { exitCode: 2 });
  if (trimmed.length > AGENT_NOTE_LIMITS.memoryText)
    throw new CliError(`${source}: at most ${AGENT_NOTE_LIMITS.memoryText} characters`, { exitCode: 2 });
  return trimmed;
}

/** Secrets of this environment never go into a memory (it is shown to every later agent). */
async function redactor(): Promise<(text: string) => string> {
  const { createSecretRedactor } = await import('../../session-log/redact-secrets.ts');
  return createSecretRedactor(process.env);
}

function describeMemory(memory: Memory): string {
  const on = memory.workItemID === null ? '' : ` on #${memory.workItemID}`;
  return `${memory.source}${on}, ${new Date(memory.updatedAt).toISOString()}`;
}

/**
 * `flotilla memory list|show|edit|forget|export|import` (issue #28 §2): the repository's memories, which
 * agents store with `store_memory` and every later agent's prompt shows ("## Memories", newest first).
 * Export/import as Markdown, so a team can commit them.
 */
export function registerMemoryCommand(program: Command): void {
  const memory = program
    .command('memory')
    .description(
      "the repository's memories: what agents stored for later agents (list, show, edit, forget, export, import)",
    );

  memory
    .command('list')
    .description('list the memories, newest first')
    .option('--json', 'print a JSON array')
    .action(
      runCliAction('memory list', (options: { json?: boolean }) =>
        withCliContext((context) => {
          const memories = context.history.memories.list();
          if (options.json) return writeJson(memories);
          if (memories.length === 0) {
            process.stdout.write('No memories yet.\n');
            return;
          }
          for (const entry of memories) {
            const first = entry.text.split('\n')[0] ?? '';
            const text = first.length > 100 ? `${first.slice(0, 99)}…` : first;
            process.stdout.write(`${entry.id}  ${entry.topic}  (${describeMemory(entry)})\n    ${text}\n`);
          }
        }),
      ),
    );

  memory
    .command('show')
    .description('show one memory whole')
    .argument('<id>', 'memory id (flotilla memory list)')
    .option('--json', 'print one JSON object')
    .action(
      runCliAction('memory show', (rawID: string, options: { json?: boolean }) => {
        const id = parseMemoryID(rawID);
        return withCliContext((context) => {
          const found = context.history.memories.get(id);
          if (found === null) throw new CliError(`memory ${id} does not exist`, { exitCode: 1 });
          if (options.json) return writeJson(found);
          process.stdout.write(`${found.id} ${found.topic} (${describeMemory(found)})\n\n${found.text}\n`);
        });
      }),
    );

  memory
    .command('edit')
    .description("replace a memory's text (recorded as a human's): --text, or in $VISUAL / $EDITOR")
    .argument('<id>', 'memory id (flotilla memory list)')
    .option('--text <text>', 'the new text (without it, the memory opens in $VISUAL / $EDITOR)')
    .action(
      runCliAction('memory edit', (rawID: string, options: { text?: string }) => {
        const id = parseMemoryID(rawID);
        const given = options.text === undefined ? undefined : checkText(options.text);
        return withCliContext(async (context) => {
          const current = context.history.memories.get(id);
          if (current === null) throw new CliError(`memory ${id} does not exist`, { exitCode: 1 });
          const text =
            given ??
            checkText(
              await editMemoryInEditor(current, context.paths.stateDir),
              'the edited text (nothing was changed)',
            );
          if (text === current.text) {
            process.stdout.write(`memory ${id} (${current.topic}) unchanged\n`);
            return;
          }
          const edited = context.history.memories.edit(id, (await redactor())(text), Date.now());
          if (edited === null) throw new CliError(`memory ${id} does not exist`, { exitCode: 1 });
          process.stdout.write(`memory ${id} (${edited.topic}) edited\n`);
        });
      }),
    );

  memory
    .command('forget')
    .description('remove a memory: later agents no longer see it')
    .argument('<id>', 'memory id (flotilla memory list)')
    .action(
      runCliAction('memory forget', (rawID: string) => {
        const id = parseMemoryID(rawID);
        return withCliContext((context) => {
          if (!context.history.memories.forget(id))
            throw new CliError(`memory ${id} does not exist`, { exitCode: 1 });
          process.stdout.write(`memory ${id} forgotten\n`);
        });
      }),
    );

  memory
    .command('export')
    .description('write the memories as Markdown (one "## <topic>" section each), to stdout or a file')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(
      runCliAction('memory export', (options: { output?: string }) =>
        withCliContext(async (context) => {
          const markdown = formatMemoriesMarkdown(context.history.memories.list());
          if (options.output === undefined) process.stdout.write(markdown);
          else await writeFile(options.output, markdown);
        }),
      ),
    );

  memory
    .command('import')
    .description(
      'store the memories of a Markdown file (as export writes it); a topic that exists takes the new text',
    )
    .argument('<file>', 'the Markdown file')
    .action(
      runCliAction('memory import', async (file: string) => {
        const markdown = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`cannot read ${file}: ${error.code ?? error.message}`, { exitCode: 1 });
        });
        const parsed = parseMemoriesMarkdown(markdown, file);
        if (!parsed.ok)
          throw new CliError(`${file} is not a memories file:`, { exitCode: 2, details: parsed.errors });
        return withCliContext(async (context) => {
          const redact = await redactor();
          const at = Date.now();
          for (const entry of parsed.memories)
            context.history.memories.upsert({
              topic: entry.topic,
              text: redact(entry.text),
              source: 'human',
              sessionID: null,
              workItemID: null,
              runtime: null,
              at,
            });
          process.stdout.write(`${parsed.memories.length} memories imported from ${file}\n`);
        });
      }),
    );
}
