import { runGit } from '../../../process/run-command.ts';

const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const DEFAULT_TIMEOUT_MS = 2 * 60_000;

/**
 * The UTF-8 text of many blobs with one `git cat-file --batch` process. Throws, naming the object, when a
 * blob is missing. Invalid UTF-8 is decoded with replacement characters.
 */
export async function readBlobs(
  repoRoot: string,
  blobSHAs: readonly string[],
  options: { timeoutMs?: number } = {},
): Promise<Map<string, string>> {
  const unique = [...new Set(blobSHAs)];
  const contents = new Map<string, string>();
  if (unique.length === 0) return contents;
  for (const sha of unique) {
    if (!OBJECT_NAME.test(sha)) throw new Error(`Not a blob SHA: "${sha}"`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { stdout } = await runGit(['cat-file', '--batch'], {
    cwd: repoRoot,
    timeoutMs,
    input: `${unique.join('\n')}\n`,
  });

  // Sizes in the batch headers are bytes. runGit decodes output as UTF-8, which is lossless only when there
  // was no invalid UTF-8 (decoded as U+FFFD); then the bytes are recovered exactly by re-encoding.
  if (stdout.includes('\uFFFD')) {
    for (const sha of unique) {
      contents.set(sha, (await runGit(['cat-file', 'blob', sha], { cwd: repoRoot, timeoutMs })).stdout);
    }
    return contents;
  }
  const bytes = Buffer.from(stdout, 'utf8');
  let offset = 0;
  for (const sha of unique) {
    const headerEnd = bytes.indexOf(10, offset);
    if (headerEnd === -1) throw new Error(`git cat-file --batch: output ended before ${sha}`);
    const header = bytes.toString('utf8', offset, headerEnd);
    const [name, type, size] = header.split(' ');
    if (name !== sha) throw new Error(`git cat-file --batch: expected ${sha}, got "${header}"`);
    if (type !== 'blob' || size === undefined) {
      throw new Error(`Blob ${sha} is ${type === 'missing' ? 'missing' : `a ${type}, not a blob`}`);
    }
    const start = headerEnd + 1;
    const end = start + Number(size);
    contents.set(sha, bytes.toString('utf8', start, end));
    offset = end + 1; // the newline after the content
  }
  return contents;
}
