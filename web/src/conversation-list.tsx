import type { AgentConversation } from './api-client.ts';

/** `implementor of #8`, `planner` — as `flotilla conversations` names a party. */
function partyName(party: AgentConversation['from']): string {
  return party.workItemID === null ? party.role : `${party.role} of #${party.workItemID}`;
}

/**
 * Questions agents asked each other (`ask_agent`, issue #28 §3), newest first, as `flotilla conversations`
 * prints them: who asked whom, when, how it ended, the question and the answer (or why there was none).
 * Everything agents wrote stays text.
 */
export function ConversationList({ conversations }: { conversations: readonly AgentConversation[] }) {
  if (conversations.length === 0) return <p class="dim">no conversations between agents</p>;
  return (
    <ul class="conversations">
      {conversations.map((conversation) => (
        <li key={conversation.id} data-conversation={conversation.id}>
          <span class="dim">
            {new Date(conversation.createdAt).toLocaleString()} · {conversation.id}
          </span>{' '}
          {partyName(conversation.from)} →{' '}
          {conversation.to === null ? `'${conversation.target}'` : partyName(conversation.to)}{' '}
          <span class={`conversation-${conversation.status}`}>[{conversation.status}]</span>
          <pre class="text">Q: {conversation.question}</pre>
          {conversation.answer !== null && (
            <pre class="text">
              {conversation.status === 'answered' ? 'A' : '-'}: {conversation.answer}
            </pre>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The dashboard's conversations panel (`t`, or `#conversations`): the newest 50 of every item. */
export function ConversationsPanel(props: { conversations: readonly AgentConversation[]; onClose(): void }) {
  return (
    <section class="conversations-panel" data-testid="conversations" aria-label="conversations">
      <button type="button" class="close" onClick={props.onClose} title="t or Esc">
        ✕
      </button>
      <h2>Conversations between agents</h2>
      <ConversationList conversations={props.conversations} />
    </section>
  );
}
