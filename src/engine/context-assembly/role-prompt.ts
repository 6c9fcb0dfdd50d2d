import type { WorkItem } from '../../domain/index.ts';
import { buildWorkItemSection } from './build-work-item-section.ts';
import { withoutTrailingNewlines } from './markdown-text.ts';

/**
 * A role's prompt before the task context is put in front of it: the built-in layout, and each section on
 * its own as a template variable (docs/prompt-templates.md), '' when a section has nothing to show.
 */
export interface RolePrompt {
  builtIn: string;
  variables: Record<string, string>;
}

/** The work item's variables: `{taskId}`, `{taskTitle}`, `{taskDescription}`, `{taskStatus}`, `{workItem}`. */
export function buildWorkItemVariables(
  workItem: Pick<WorkItem, 'id' | 'title' | 'status'>,
  body: string,
): Record<string, string> {
  return {
    taskId: workItem.id,
    taskTitle: workItem.title,
    taskDescription: withoutTrailingNewlines(body),
    taskStatus: workItem.status,
    workItem: buildWorkItemSection(workItem, body),
  };
}
