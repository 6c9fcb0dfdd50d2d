import type { RunSummary, TranscriptResponse } from './api-client.ts';

interface RunsSectionProps {
  runs: RunSummary[];
  /** The latest run's transcript that has a log, or why it could not be read. */
  transcript: TranscriptResponse | string | null;
}

/** An item's runs, newest first, then the transcript of the latest one that has a log. */
export function RunsSection({ runs, transcript }: RunsSectionProps) {
  return (
    <section>
      <h3>Runs</h3>
      {runs.length === 0 ? (
        <p class="dim">no runs yet</p>
      ) : (
        <ul class="runs">
          {runs.map((run) => (
            <li key={run.sessionID}>
              {run.role} <span class={`run-${run.status}`}>{run.status}</span> ·{' '}
              <code>{run.sessionID.slice(0, 8)}</code>
              {run.costUSD === null ? '' : ` · $${run.costUSD.toFixed(2)}`}
              {run.error ? ` · ${run.error}` : ''}
            </li>
          ))}
        </ul>
      )}
      {transcript !== null && (
        <>
          <h3 data-section="transcript">Transcript</h3>
          {typeof transcript === 'string' ? (
            <p class="error">{transcript}</p>
          ) : (
            <pre class="transcript" data-testid="transcript">
              {transcript.text}
            </pre>
          )}
        </>
      )}
    </section>
  );
}
