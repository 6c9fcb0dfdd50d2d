import { evaluateWord } from './evaluate-word.ts';
import { heredocByteRange, heredocText } from './heredoc-text.ts';
import { isReadOnlyRedirectTarget } from './inspect-read-only.ts';
import { findProtectedWriteTarget } from './protected-paths.ts';
import { SHELL_OP, type ShellRedirect, type ShellWord } from './shell-ast.ts';
import { staticWordText } from './static-word-text.ts';
import type { InspectionContext, StdinSource } from './types.ts';

/** What a redirection needs of the walker: the context, its walk of nested words, the heredoc ranges. */
export interface RedirectWalk {
  context: InspectionContext;
  wordNested(word: ShellWord): void;
  heredocByteRanges: Array<[number, number]>;
}

/**
 * One redirection of a statement: its words walked, `/dev/tcp` and `/dev/udp` refused, output targets
 * checked (protected paths; a read-only session's writes), and the standard input it gives the command —
 * a file, or the static text of a heredoc or here-string (a script for a shell to be validated).
 */
export function walkRedirect(redirect: ShellRedirect, stdin: StdinSource, walk: RedirectWalk): StdinSource {
  if (redirect.Word) walk.wordNested(redirect.Word);
  if (redirect.Hdoc) {
    walk.wordNested(redirect.Hdoc);
    const range = heredocByteRange(redirect.Hdoc);
    if (range) walk.heredocByteRanges.push(range);
  }
  const target = redirect.Word ? evaluateWord(redirect.Word) : null;
  if (target?.some((word) => /^\/dev\/(tcp|udp)\//.test(word.value))) {
    walk.context.report('danger', 'Blocked: redirection to /dev/tcp or /dev/udp opens a network connection');
  }
  return applyRedirect(redirect, stdin, walk.context);
}

/** Checks what the redirection writes to; the standard input the command gets after it. */
function applyRedirect(redirect: ShellRedirect, stdin: StdinSource, context: InspectionContext): StdinSource {
  const fd = redirect.N?.Value ?? null;
  const onStdin = fd === null || fd === '0';
  switch (redirect.Op) {
    case SHELL_OP.rdrOut:
    case SHELL_OP.appOut:
    case SHELL_OP.clbOut:
    case SHELL_OP.rdrAll:
    case SHELL_OP.appAll:
    case SHELL_OP.rdrInOut:
      checkRedirectTarget(redirect.Word, context);
      return redirect.Op === SHELL_OP.rdrInOut && onStdin ? { kind: 'file' } : stdin;
    case SHELL_OP.dplOut: {
      const duplicated = redirect.Word ? staticWordText(redirect.Word) : null;
      if (duplicated === null || !/^(\d+|-)$/.test(duplicated)) checkRedirectTarget(redirect.Word, context);
      return stdin;
    }
    case SHELL_OP.rdrIn:
    case SHELL_OP.dplIn:
      return onStdin ? { kind: 'file' } : stdin;
    case SHELL_OP.hdoc:
    case SHELL_OP.dashHdoc:
      return onStdin ? { kind: 'script', text: redirect.Hdoc ? heredocText(redirect) : '' } : stdin;
    case SHELL_OP.wordHdoc: {
      if (!onStdin) return stdin;
      const text = redirect.Word ? staticWordText(redirect.Word) : null;
      return { kind: 'script', text: text === null ? null : `${text}\n` };
    }
    default:
      context.report('danger', `Blocked: unsupported redirection operator (${redirect.Op})`);
      return stdin;
  }
}

/** An output redirection's target: never a protected path; in a read-only session, only harmless ones. */
function checkRedirectTarget(word: ShellWord | null, context: InspectionContext): void {
  if (!word) return;
  const targets = evaluateWord(word);
  if (!targets) {
    context.report('danger', 'Blocked: redirection target expands to too many words');
    return;
  }
  for (const target of targets) {
    if (context.rules.readOnly === true && (target.dynamic || !isReadOnlyRedirectTarget(target.value))) {
      context.report(
        'danger',
        `Blocked: this session is read-only (investigate/refine modes): output redirection to '${target.masked}' writes a file`,
      );
      continue;
    }
    const problem = findProtectedWriteTarget(target, context.place);
    if (problem) context.report('danger', `Blocked: output redirection refused: ${problem}`);
  }
}
