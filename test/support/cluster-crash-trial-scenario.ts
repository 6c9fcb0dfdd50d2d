/**
 * The crash trial's scripted model (test/support/cluster-crash-trial.ts): a planner that creates `items`
 * independent items (`Add module<n>`), an implementor that writes `src/module<n>.js` (its first answer
 * `latencyMs` late, so kills land mid-run) and a reviewer that approves. Every request is recorded with its
 * item, role and agent session, to find two agents ever on one item (`findOverlaps`).
 */
import type { RequestView } from '../../src/model-server/index.ts';

export interface AgentRequest {
  item: number;
  role: 'implementor' | 'reviewer';
  session: string;
  at: number;
}

export function crashTrialRoutes(items: number, latencyMs: number, seen: AgentRequest[]) {
  const record = (role: AgentRequest['role']) => (view: RequestView) => {
    const item = itemOf(view);
    if (item === null) return `no "Add module<n>" in the ${role}'s prompt`;
    seen.push({ item, role, session: view.sessionId ?? 'unknown', at: Date.now() });
    return undefined;
  };
  return [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        {
          structuredOutput: {
            role: 'planner',
            create: Array.from({ length: items }, (_, index) => ({
              tempID: `m${index + 1}`,
              title: `Add module${index + 1}`,
              body: `Objective: write src/module${index + 1}.js exporting its number.`,
              labels: [],
              blockedBy: [],
            })),
            close: [],
            update: [],
          },
        },
      ],
    },
    {
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor' },
      steps: [
        {
          delayMs: latencyMs,
          check: record('implementor'),
          respond: (view: RequestView) => {
            const item = itemOf(view) ?? 0;
            return {
              content: [
                {
                  type: 'tool_use' as const,
                  name: 'Write',
                  input: {
                    file_path: `{{cwd}}/src/module${item}.js`,
                    content: `export const module${item} = ${item};\n`,
                  },
                },
              ],
            };
          },
        },
        {
          check: record('implementor'),
          structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'module added' },
        },
      ],
    },
    {
      name: 'reviewer',
      match: { systemIncludes: 'You are the reviewer' },
      steps: [
        {
          check: record('reviewer'),
          structuredOutput: { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } },
        },
      ],
    },
  ];
}

/**
 * The item a prompt is about: its `## Work Item` heading first, since the task context before it names every
 * item the plan created (the plan's summary).
 */
function itemOf(view: RequestView): number | null {
  const found =
    /## Work Item #\S+ — Add module(\d+)/.exec(view.firstUser) ?? /Add module(\d+)/.exec(view.firstUser);
  return found === null ? null : Number(found[1]);
}

/**
 * Two agent sessions of one role on one item whose requests interleave (one asked after the other began and
 * before it asked its last): two agents at once. A session killed mid-request ends at its last request.
 */
export function findOverlaps(seen: readonly AgentRequest[]): string[] {
  const spans = new Map<string, { key: string; session: string; first: number; last: number }>();
  for (const request of seen) {
    const id = `${request.item}/${request.role}/${request.session}`;
    const span = spans.get(id);
    if (span === undefined)
      spans.set(id, {
        key: `${request.role} on #module${request.item}`,
        session: request.session,
        first: request.at,
        last: request.at,
      });
    else span.last = Math.max(span.last, request.at);
  }
  const all = [...spans.values()];
  return all.flatMap((a, index) =>
    all
      .slice(index + 1)
      .filter((b) => b.key === a.key && a.first <= b.last && b.first <= a.last)
      .map((b) => `${a.key}: sessions ${a.session} and ${b.session} at once`),
  );
}

/** A seeded random (mulberry32): the same seed replays the same kills. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
