import { useState } from 'preact/hooks';
import { api, type ProposalEntry } from './api-client.ts';

/** What applying a plan does, as `flotilla proposals show` prints it; an investigation's report as JSON. */
function ProposalContent({ proposal }: { proposal: ProposalEntry }) {
  if (proposal.report != null) {
    return <pre class="text">{JSON.stringify(proposal.report, null, 2)}</pre>;
  }
  const { create, close, update } = proposal.result;
  return (
    <div>
      <p class="dim">Specs: {Object.keys(proposal.specSHAs).join(', ') || '-'}</p>
      <p>Create ({create.length}):</p>
      <ul>
        {create.map((item) => (
          <li key={item.tempID}>
            [{item.tempID}] <strong>{item.title}</strong>
            {item.labels.length > 0 && <span class="dim"> labels: {item.labels.join(', ')}</span>}
            {item.blockedBy.length > 0 && <span class="dim"> blocked by: {item.blockedBy.join(', ')}</span>}
            <pre class="text">{item.body}</pre>
          </li>
        ))}
      </ul>
      <p>
        Close ({close.length}): {close.map((id) => `#${id}`).join(', ') || '-'}
      </p>
      <p>
        Update ({update.length}): {update.map((entry) => `#${entry.workItemID}`).join(', ') || '-'}
      </p>
    </div>
  );
}

/** One pending proposal: its content, Accept, and Reject with the reason the revising planner gets. */
function ProposalCard(props: { proposal: ProposalEntry; onDone(text: string): void }) {
  const { proposal } = props;
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = (decision: 'accept' | 'reject') => {
    setBusy(true);
    api.decideProposal(proposal.id, decision, decision === 'reject' ? reason : '').then(
      (outcome) =>
        props.onDone(`${decision}ed proposal #${proposal.id}: ${outcome.effect} (${outcome.when})`),
      (error: unknown) => {
        setBusy(false);
        props.onDone(
          `${decision} #${proposal.id}: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  };
  const about = proposal.subjectID == null ? '' : ` of #${proposal.subjectID}`;
  return (
    <li data-proposal={proposal.id}>
      <h3>
        Proposal #{proposal.id} · {proposal.kind}
        {about}
        {proposal.revises !== null && <span class="dim"> · revises #{proposal.revises}</span>}
      </h3>
      <ProposalContent proposal={proposal} />
      <div class="proposal-actions">
        <button type="button" data-testid="proposal-accept" disabled={busy} onClick={() => decide('accept')}>
          Accept
        </button>
        <textarea
          data-testid="proposal-reason"
          placeholder="why reject it: the planner revises the plan with this"
          value={reason}
          onInput={(event) => setReason((event.target as HTMLTextAreaElement).value)}
        />
        <button type="button" data-testid="proposal-reject" disabled={busy} onClick={() => decide('reject')}>
          Reject
        </button>
      </div>
    </li>
  );
}

/**
 * The dashboard's proposals panel (`p`, or `#proposals`): the pending proposals nobody decided yet, newest
 * first. A decision leaves the list at once (the server reports it recorded), and the engine applies it.
 */
export function ProposalsPanel(props: {
  proposals: readonly ProposalEntry[];
  onClose(): void;
  onDone(text: string): void;
}) {
  return (
    <section class="conversations-panel" data-testid="proposals" aria-label="proposals">
      <button type="button" class="close" onClick={props.onClose} title="p or Esc">
        ✕
      </button>
      <h2>Proposals waiting for you</h2>
      {props.proposals.length === 0 ? (
        <p class="dim">no pending proposals</p>
      ) : (
        <ul class="proposals">
          {props.proposals.map((proposal) => (
            <ProposalCard key={proposal.id} proposal={proposal} onDone={props.onDone} />
          ))}
        </ul>
      )}
    </section>
  );
}
