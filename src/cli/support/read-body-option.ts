import { readFile } from 'node:fs/promises';
import { messageOf } from '../../shared/message-of.ts';
import { CliError } from './cli-error.ts';

/** `--body <text>` / `--body-file <path|->` as commands take them. */
export interface BodyOptions {
  body?: string | undefined;
  bodyFile?: string | undefined;
}

/**
 * The text given by `--body` or `--body-file` (`-` reads stdin), or undefined when neither was given. Both,
 * or a file that cannot be read: a usage error (exit 2) naming the file.
 */
export async function readBodyOption(options: BodyOptions): Promise<string | undefined> {
  if (options.body !== undefined && options.bodyFile !== undefined) {
    throw new CliError('give either --body or --body-file, not both', { exitCode: 2 });
  }
  if (options.bodyFile === undefined) return options.body;
  try {
    return options.bodyFile === '-' ? await readStdin() : await readFile(options.bodyFile, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read --body-file ${options.bodyFile}: ${messageOf(error)}; expected a readable text file`,
      { exitCode: 2 },
    );
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
