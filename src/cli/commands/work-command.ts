import type { Command } from 'commander';
import { registerWorkCloseCommand } from './work-close-command.ts';
import { registerWorkCommentCommand } from './work-comment-command.ts';
import { registerWorkCreateCommand } from './work-create-command.ts';
import { registerWorkDispatchCommand } from './work-dispatch-command.ts';
import { registerWorkEditCommand } from './work-edit-command.ts';
import { registerWorkListCommand } from './work-list-command.ts';
import { registerWorkReopenCommand } from './work-reopen-command.ts';
import { registerWorkShowCommand } from './work-show-command.ts';
import { registerWorkTransitionCommand } from './work-transition-command.ts';

/**
 * `flotilla work list|show|create|edit|comment|close|reopen|transition|dispatch`: edit the local tracker the way a human edits GitHub
 * issues. A running engine sees the edits through its work item poller.
 */
export function registerWorkCommand(program: Command): void {
  const work = program
    .command('work')
    .description(
      'list, show, create and edit work items: the local tracker\'s (.flotilla/flotilla.db), or the GitHub issues of `provider: "github"`',
    );
  registerWorkListCommand(work);
  registerWorkShowCommand(work);
  registerWorkCreateCommand(work);
  registerWorkEditCommand(work);
  registerWorkCommentCommand(work);
  registerWorkCloseCommand(work);
  registerWorkReopenCommand(work);
  registerWorkTransitionCommand(work);
  registerWorkDispatchCommand(work);
}
