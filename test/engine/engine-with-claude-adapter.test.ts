/**
 * The engine driving the real Claude adapter (real SDK, scripted model server): the engine's session IDs
 * are the adapter's and the SDK's, so its live stream, cancel and shutdown reach the running session.
 */
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { processesWith, waitUntil } from '../support/claude-adapter-fixture.ts';
import {
  createAgentRepo,
  createSingleRuntimeEngine,
  createTestClaudeAdapter,
} from '../support/create-runtime-engine.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';
import { type EngineSetup, trackEngineSetup } from '../support/track-engine-setup.ts';

type Setup = EngineSetup;
const track = trackEngineSetup();

async function setUp(scenario: ScenarioSpec): Promise<Setup> {
  const repo = await createAgentRepo({ files: { 'README.md': '# Sample\n' } });
  const server = await createModelServer(scenario);
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const logger = createRecordingLogger();
  const engine = createSingleRuntimeEngine({
    provider,
    logger,
    createAdapter: () => createTestClaudeAdapter(repo, server, logger),
  });
  return track({ engine, provider, server, repo });
}

// Real SDK sessions are slow under load: the default 20 s is too short for them.
describe('engine + Claude adapter', { timeout: 240_000 }, () => {
  it('implements and reviews an item end to end, streaming the session live under the engine session ID', async () => {
    const { engine, provider, server } = await setUp({
      name: 'one-item',
      onUnmetExpectation: 'reject',
      // The reviewer's prompt also contains the work item section: its route must come first.
      routes: [
        {
          name: 'reviewer',
          match: { firstUserIncludes: '## Revision #' },
          steps: [
            {
              expect: { firstUserIncludes: ['greeting.txt', '+hello'] },
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'Looks right.', comments: [] },
              },
            },
          ],
        },
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #1 — Add a greeting' },
          steps: [
            {
              content: [
                { type: 'text', text: 'Writing the greeting.' },
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{cwd}}/greeting.txt', content: 'hello\n' },
                },
              ],
            },
            {
              structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Added greeting.txt' },
            },
          ],
        },
      ],
    });
    provider.control.addWorkItem({ title: 'Add a greeting', body: 'Objective: greet.', status: 'pending' });
    const streamed: string[] = [];
    engine.onEvent((event) => {
      if (event.type !== 'implementorStarted') return;
      const stream = engine.getAgentStream(event.sessionID);
      expect(stream).not.toBeNull();
      void (async () => {
        for await (const chunk of stream!) streamed.push(chunk);
      })();
    });
    await engine.start();
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'approved',
      150_000,
      'the item to be approved',
    );
    expect(server.report().problems).toEqual([]);
    expect(streamed).toContain('Writing the greeting.');
    const runs = Object.values(engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.status])).toEqual([
      ['implementor', 'completed'],
      ['reviewer', 'completed'],
    ]);
    // The engine's session IDs are the ones the SDK used.
    const sessionHeaders = server.requests.map((request) => request.headers['x-claude-code-session-id']);
    for (const run of runs) expect(sessionHeaders).toContain(run.sessionID);
    expect(runs.every((run) => run.usage?.costUSD !== undefined && run.logFilePath)).toBe(true);
    expect(engine.getAgentStream('no-such-session')).toBeNull();
  });

  it('a user cancel from the engine reaches the SDK session and its tool process', async () => {
    const marker = `flotilla-engine-cancel-${process.pid}-${Date.now()}`;
    const { engine, provider } = await setUp({
      name: 'cancel',
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'Bash',
                  input: { command: `tail -f /dev/null ${marker}`, description: 'Wait' },
                },
              ],
            },
            { text: 'never reached' },
          ],
        },
      ],
    });
    provider.control.addWorkItem({ title: 'Long task', status: 'pending' });
    await engine.start();
    await waitUntil(() => tailRunning(marker), 60_000, 'the tool to run');
    const run = Object.values(engine.getState().agentRuns).find((r) => r.status === 'running');
    expect(run).toBeDefined();
    engine.enqueue({ type: 'userCancelledRun', sessionID: run!.sessionID });
    await waitUntil(
      () => engine.getState().agentRuns[run!.sessionID]?.status === 'cancelled',
      30_000,
      'the run to be cancelled',
    );
    await waitUntil(() => !tailRunning(marker), 15_000, 'the tool process to exit');
    expect(engine.getState().workItems['1']?.status).toBe('blocked');
  });
});

function tailRunning(marker: string): boolean {
  return processesWith(marker).length > 0;
}
