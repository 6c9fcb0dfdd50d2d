import type { Command } from 'commander';
import { type AgentConversation, describeConversationParty } from '../../domain/index.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** One conversation as `flotilla conversations` prints it: who asked whom, the question, how it ended. */
export function formatConversation(conversation: AgentConversation): string {
  const to =
    conversation.to === null ? `'${conversation.target}'` : describeConversationParty(conversation.to);
  const at = new Date(conversation.createdAt).toISOString();
  const lines = [
    `${conversation.id} ${at} ${describeConversationParty(conversation.from)} → ${to} [${conversation.status}]`,
    `  Q: ${conversation.question}`,
  ];
  if (conversation.answer !== null)
    lines.push(`  ${conversation.status === 'answered' ? 'A' : '-'}: ${conversation.answer}`);
  return lines.join('\n');
}

/**
 * `flotilla conversations [--item id] [--limit n] [--json]` (issue #28 §3): the questions agents asked each
 * other while they ran (`ask_agent`), newest first, with the answer or why there was none.
 */
export function registerConversationsCommand(program: Command): void {
  program
    .command('conversations')
    .description('questions agents asked each other while they ran, and the answers (newest first)')
    .option('--item <id>', "only those a work item's agents asked or were asked")
    .option('--limit <n>', 'show at most this many', '50')
    .option('--json', 'print a JSON array')
    .action(
      runCliAction('conversations', (options: { item?: string; limit: string; json?: boolean }) =>
        withCliContext((context) => {
          const limit = Math.max(1, Number.parseInt(options.limit, 10) || 50);
          const conversations = context.history.conversations.list({
            limit,
            ...(options.item !== undefined && { workItemID: options.item.replace(/^#/, '') }),
          });
          if (options.json) return writeJson(conversations);
          if (conversations.length === 0) {
            process.stdout.write('No conversations between agents.\n');
            return;
          }
          for (const conversation of conversations)
            process.stdout.write(`${formatConversation(conversation)}\n`);
        }),
      ),
    );
}
