import type { Spec, SpecProblem } from '../../../domain/index.ts';
import { runGit } from '../../../process/run-command.ts';
import { buildBranchRef } from '../../shared/build-branch-ref.ts';
import { parseSpecFrontmatter, type SpecFrontmatter } from '../../shared/parse-spec-frontmatter.ts';
import { resolveCommit } from '../../shared/resolve-commit.ts';
import type { SpecReader } from '../../types.ts';
import { readBlobs } from './read-blobs.ts';

export interface GitSpecReaderOptions {
  repoRoot: string;
  defaultBranch: string;
  /** Relative to the repository root, e.g. `docs/specs`; `''` or `.` means the whole repository. */
  specsDir: string;
  /** Default: 2 minutes per git command. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
const SYMLINK_MODE = '120000';

/**
 * Specs as committed on the default branch, read with git plumbing only (the working tree is never read,
 * so uncommitted edits do not count): `ls-tree` for paths and blob SHAs, one `cat-file --batch` for the
 * contents that are not cached yet. Parsed results are cached by blob SHA, so an unchanged spec is never
 * read twice.
 *
 * A spec is a markdown file (`.md`, any case) anywhere under `specsDir`; other files, symlinks and
 * submodules there are ignored. Status comes from the frontmatter (parseSpecFrontmatter); a broken
 * frontmatter is reported as a problem naming the file, and the spec is still listed, as a draft.
 */
export function createGitSpecReader(options: GitSpecReaderOptions): SpecReader {
  const { repoRoot } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const specsDir = normaliseSpecsDir(options.specsDir);
  const defaultRef = buildBranchRef(options.defaultBranch);
  const parsed = new Map<string, SpecFrontmatter>();

  async function getDefaultBranchSHA(): Promise<string> {
    return resolveCommit(repoRoot, defaultRef, { timeoutMs }).catch((error: unknown) => {
      throw new Error(`Default branch ${options.defaultBranch} not found in ${repoRoot}`, { cause: error });
    });
  }

  async function listMarkdownBlobs(commit: string): Promise<{ filePath: string; blobSHA: string }[]> {
    const pathspec = specsDir === '' ? [] : [specsDir];
    const { stdout } = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...pathspec], {
      cwd: repoRoot,
      timeoutMs,
    });
    const blobs: { filePath: string; blobSHA: string }[] = [];
    for (const entry of stdout.split('\0')) {
      const tab = entry.indexOf('\t');
      if (tab === -1) continue;
      const [mode, type, blobSHA] = entry.slice(0, tab).split(' ');
      const filePath = entry.slice(tab + 1);
      if (type !== 'blob' || mode === SYMLINK_MODE || blobSHA === undefined) continue;
      if (!filePath.toLowerCase().endsWith('.md')) continue;
      if (specsDir !== '' && !filePath.startsWith(`${specsDir}/`)) continue;
      blobs.push({ filePath, blobSHA });
    }
    return blobs;
  }

  return {
    getDefaultBranchSHA,

    async readSpecBlob(blobSHA) {
      const content = (await readBlobs(repoRoot, [blobSHA], { timeoutMs })).get(blobSHA);
      if (content === undefined) throw new Error(`Blob ${blobSHA} was not read`);
      return content;
    },

    async listSpecs() {
      const blobs = await listMarkdownBlobs(await getDefaultBranchSHA());
      const unread = blobs.map((blob) => blob.blobSHA).filter((sha) => !parsed.has(sha));
      for (const [sha, content] of await readBlobs(repoRoot, unread, { timeoutMs })) {
        parsed.set(sha, parseSpecFrontmatter(content));
      }
      // Keep only what the branch still has, so the cache does not grow with every edit.
      const current = new Set(blobs.map((blob) => blob.blobSHA));
      for (const sha of parsed.keys()) if (!current.has(sha)) parsed.delete(sha);

      const specs: Spec[] = [];
      const problems: SpecProblem[] = [];
      for (const { filePath, blobSHA } of blobs) {
        const frontmatter = parsed.get(blobSHA);
        if (frontmatter === undefined) throw new Error(`Spec ${filePath} (${blobSHA}) was not read`);
        specs.push({ filePath, blobSHA, frontmatterStatus: frontmatter.status });
        if (frontmatter.problem !== null) {
          // The path is the problem's filePath; consumers prefix it (the spec poller does).
          problems.push({
            filePath,
            message: `broken frontmatter, treated as draft: ${frontmatter.problem}`,
          });
        }
      }
      return { specs, problems };
    },
  };
}

function normaliseSpecsDir(specsDir: string): string {
  const trimmed = specsDir
    .trim()
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '.') return '';
  if (trimmed.startsWith('/') || trimmed.split('/').includes('..')) {
    throw new Error(`specsDir must be a path inside the repository, got "${specsDir}"`);
  }
  return trimmed;
}
