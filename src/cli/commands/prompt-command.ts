import type { Command } from 'commander';
import { AGENT_ROLES, type AgentRole } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla prompt <role> [item]`: prints the exact prompt a run of the role on the item would be given now
 * — task context, template (`.flotilla/prompts/<role>.md`, docs/prompt-templates.md) and all. Reads only.
 * An unknown role, a missing item or a bad template is exit 2; an item that does not exist, exit 1.
 */
export function registerPromptCommand(program: Command): void {
  program
    .command('prompt')
    .description('print the exact prompt an agent of <role> would get now for a work item (nothing runs)')
    .argument('<role>', AGENT_ROLES.join(' | '))
    .argument('[item]', 'work item id, e.g. 12 or #12 (not for the planner)')
    .action(
      runCliAction('prompt', (rawRole: string, rawID: string | undefined) => {
        if (!(AGENT_ROLES as readonly string[]).includes(rawRole))
          throw new CliError(`unknown role '${rawRole}': expected one of ${AGENT_ROLES.join(', ')}`, {
            exitCode: 2,
          });
        const role = rawRole as AgentRole;
        if (role !== 'planner' && rawID === undefined)
          throw new CliError(`the ${role} prompt is for a work item: flotilla prompt ${role} <item>`, {
            exitCode: 2,
          });
        const workItemID = rawID === undefined || role === 'planner' ? null : parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          const { buildCurrentPrompt, CurrentPromptError } = await import(
            '../../app/build-current-prompt.ts'
          );
          try {
            const prompt = await buildCurrentPrompt({ ...context, env: process.env, role, workItemID });
            process.stdout.write(prompt);
          } catch (error) {
            if (error instanceof CurrentPromptError)
              throw new CliError(error.message, {
                exitCode: error.kind === 'usage' ? 2 : 1,
                details: error.details,
              });
            throw error;
          }
        });
      }),
    );
}
