import type { ReviewHistory, Revision, RevisionFile } from '../../domain/index.ts';
import type { ChecksOutputTail } from '../../providers/types.ts';
import { codeBlock, withoutTrailingNewlines } from './markdown-text.ts';

export interface RevisionSectionsInput {
  revision: Pick<Revision, 'id' | 'title' | 'pipeline'>;
  files: readonly RevisionFile[];
  history: ReviewHistory;
  /** The implementor sees failed CI; the reviewer's format has no CI section. */
  includeFailedPipeline: boolean;
  /** The end of the failed checks' output, shown under the CI status when known. */
  checksOutput?: ChecksOutputTail | null;
}

/**
 * The revision part of the implementor and reviewer prompts (docs/seeds.md §Context Assembly): header, changed files (a code
 * block only when the file has a patch), `CI Status: FAILURE` only when the pipeline failed, and prior
 * reviews and inline comments only when there are some.
 */
export function buildRevisionSections({
  revision,
  files,
  history,
  includeFailedPipeline,
  checksOutput = null,
}: RevisionSectionsInput): string {
  const sections = [`## Revision #${revision.id} — ${revision.title}`, '### Changed Files'];
  if (files.length === 0) sections.push('(no changed files)');
  for (const file of files) {
    const heading = `#### ${file.path} (${file.status})`;
    sections.push(file.patch === null ? heading : `${heading}\n${codeBlock(file.patch)}`);
  }
  if (includeFailedPipeline && revision.pipeline?.status === 'failure') {
    const { reason, url } = revision.pipeline;
    const detail = [reason ?? 'Checks failed', url].filter((part) => part !== null).join(': ');
    sections.push('### CI Status: FAILURE', detail);
    if (checksOutput !== null) {
      const lines = checksOutput.text === '' ? 0 : checksOutput.text.split('\n').length;
      sections.push(
        checksOutput.truncated
          ? `Checks output (truncated: the last ${lines} lines; the whole log is ${checksOutput.logPath}):`
          : 'Checks output:',
        codeBlock(checksOutput.text),
      );
    }
  }
  if (history.reviews.length > 0) {
    sections.push('### Prior Reviews');
    for (const review of history.reviews) {
      sections.push(
        `#### Review by ${review.author} — ${review.state}`,
        withoutTrailingNewlines(review.body) || '(no body)',
      );
    }
  }
  if (history.inlineComments.length > 0) {
    sections.push('### Prior Inline Comments');
    for (const comment of history.inlineComments) {
      const location = comment.line === null ? comment.path : `${comment.path}:${comment.line}`;
      sections.push(
        `#### ${location} — ${comment.author}`,
        withoutTrailingNewlines(comment.body) || '(no body)',
      );
    }
  }
  return sections.join('\n\n');
}
