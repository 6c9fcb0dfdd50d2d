import { Box, Text } from 'ink';
import type { ItemAction } from '../actions/build-item-actions.ts';
import type { Flash } from '../hooks/use-flash.ts';
import type { DashboardFilter, DashboardPhase, DashboardPrompt } from '../input/dashboard-input-state.ts';
import { sanitizeTerminalText } from '../view-model/sanitize-terminal-text.ts';

export interface FooterProps {
  phase: DashboardPhase;
  prompt: DashboardPrompt | null;
  flash: Flash | null;
  filter: DashboardFilter;
  matches: { shown: number; total: number };
  actions: ItemAction[];
  agents: number;
  width: number;
  /** The answer being typed for a waiting item (`a`), shown in place of the keys. */
  answer?: { workItemID: string; text: string } | null;
}

/** One row, first that applies: shutting down, the open question, the filter being typed, a message, keys. */
export function Footer({
  phase,
  prompt,
  flash,
  filter,
  matches,
  actions,
  agents,
  width,
  answer = null,
}: FooterProps) {
  const content =
    phase === 'stopping' ? (
      <Stopping agents={agents} />
    ) : (
      <FooterRow {...{ prompt, flash, filter, matches, actions, width, answer }} />
    );
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate">{content}</Text>
    </Box>
  );
}

function Stopping({ agents }: { agents: number }) {
  return (
    <Text color="yellow">
      Shutting down… waiting for {agents} agent{agents === 1 ? '' : 's'} (Ctrl-C again forces)
    </Text>
  );
}

/** While running: the open question, the answer or filter being typed, a message, or the keys. */
function FooterRow({
  prompt,
  flash,
  filter,
  matches,
  actions,
  width,
  answer,
}: Omit<FooterProps, 'phase' | 'agents' | 'answer'> & { answer: FooterProps['answer'] }) {
  const counted = `${matches.shown} of ${matches.total}`;
  if (prompt) {
    return (
      <Text color="yellow" bold>
        {prompt.text} (y/n)
      </Text>
    );
  }
  if (answer) {
    return (
      <Text>
        <Text color="yellow" bold>
          answer #{answer.workItemID}: {sanitizeTerminalText(answer.text).slice(-Math.max(10, width - 50))}▏
        </Text>
        <Text dimColor> Enter sends · Esc drops</Text>
      </Text>
    );
  }
  if (filter.editing) {
    return (
      <Text>
        <Text color="cyan" bold>
          /{sanitizeTerminalText(filter.text)}▏
        </Text>
        <Text dimColor> {counted} · Enter keeps · Esc clears</Text>
      </Text>
    );
  }
  if (flash) return <Text color={flash.tone === 'error' ? 'red' : 'green'}>{flash.text}</Text>;
  const hints = actions.map((action) => `${action.key} ${action.label}`);
  const keys = [...hints, '? keys', 'q quit', 'p planner', 'f refresh', '/ filter'].join(' · ');
  if (filter.text.trim() === '') return <Text dimColor>{keys}</Text>;
  return (
    <Text>
      <Text color="cyan">
        /{sanitizeTerminalText(filter.text.trim())} ({counted}, Esc clears)
      </Text>
      <Text dimColor> · {keys}</Text>
    </Text>
  );
}
