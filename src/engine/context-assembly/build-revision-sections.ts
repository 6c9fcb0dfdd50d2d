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

/** The revision part of a prompt, piece by piece: the template variables `{changedFiles}`, `{ciFailure}`, `{priorReviews}`. */
export interface RevisionParts {
  header: string;
  /** `### Changed Files` and each file (a code block only when the file has a patch). */
  changedFiles: string;
  /** `### CI Status: FAILURE` with the checks output; '' unless the pipeline failed and it is shown. */
  ciFailure: string;
  /** Prior reviews and inline comments; '' when there are none. */
  priorReviews: string;
}

/**
 * The revision part of the implementor and reviewer prompts (docs/runtime-spec.md §Context Assembly): header, changed files (a code
 * block only when the file has a patch), `CI Status: FAILURE` only when the pipeline failed, and prior
 * reviews and inline comments only when there are some.
 */
export function buildRevisionSections(input: RevisionSectionsInput): string {
  const parts = buildRevisionParts(input);
  return [parts.header, parts.changedFiles, parts.ciFailure, parts.priorReviews]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** buildRevisionSections, each part on its own. */
export function buildRevisionParts({
  revision,
  files,
  history,
  includeFailedPipeline,
  checksOutput = null,
}: RevisionSectionsInput): RevisionParts {
  const fileSections = ['### Changed Files'];
  if (files.length === 0) fileSections.push('(no changed files)');
  for (const file of files) {
    const heading = `#### ${file.path} (${file.status})`;
    fileSections.push(file.patch === null ? heading : `${heading}\n${codeBlock(file.patch)}`);
  }
  const ci: string[] = [];
  if (includeFailedPipeline && revision.pipeline?.status === 'failure') {
    const { reason, url } = revision.pipeline;
    const detail = [reason ?? 'Checks failed', url].filter((part) => part !== null).join(': ');
    ci.push('### CI Status: FAILURE', detail);
    if (checksOutput !== null) {
      const lines = checksOutput.text === '' ? 0 : checksOutput.text.split('\n').length;
      ci.push(
        checksOutput.truncated
          ? `Checks output (truncated: the last ${lines} lines; the whole log is ${checksOutput.logPath}):`
          : 'Checks output:',
        codeBlock(checksOutput.text),
      );
    }
  }
  const reviews: string[] = [];
  if (history.reviews.length > 0) {
    reviews.push('### Prior Reviews');
    for (const review of history.reviews) {
      reviews.push(
        `#### Review by ${review.author} — ${review.state}`,
        withoutTrailingNewlines(review.body) || '(no body)',
      );
    }
  }
  if (history.inlineComments.length > 0) {
    reviews.push('### Prior Inline Comments');
    for (const comment of history.inlineComments) {
      const location = comment.line === null ? comment.path : `${comment.path}:${comment.line}`;
      reviews.push(
        `#### ${location} — ${comment.author}`,
        withoutTrailingNewlines(comment.body) || '(no body)',
      );
    }
  }
  return {
    header: `## Revision #${revision.id} — ${revision.title}`,
    changedFiles: fileSections.join('\n\n'),
    ciFailure: ci.join('\n\n'),
    priorReviews: reviews.join('\n\n'),
  };
}
