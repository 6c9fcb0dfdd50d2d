/**
 * Issue #28 §5 ("Done when": `kill -9` mid-run keeps all but ≤ 3 s of the log), end to end: a real
 * `flotilla run --headless` in its own process group, its implementor the real claude binary answered by the
 * scripted model server on 127.0.0.1. The implementor runs three Bash commands as three separate model turns,
 * each printing a distinct marker; the model's next reply is never given. Three seconds after that request
 * arrived (so after the third command's result was back in the agent), the whole group gets SIGKILL — no
 * shutdown code runs — and every tool call and tool result must be in the run's transcript, both in the file
 * and as `flotilla logs` prints it.
 *
 * Why this fails if the log were only written at the end of the run: the run never ends. The held reply
 * means the session neither completes nor fails before the kill, and SIGKILL leaves no chance to write
 * anything afterwards, so a transcript written on completion (or buffered in memory until then) would be
 * missing or hold no marker at all; the test also checks that no footer (`=== Session End ===`) was written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/model-server/index.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { readDatabase, startFlotillaRun } from '../support/flotilla-run-process.ts';
import { oneItemScenario } from '../support/run-scenarios.ts';
import { waitForCondition } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

/** Issue #28 §5: output is flushed at least every 3 s, so a kill loses at most the last 3 s. */
const FLUSH_BOUND_MS = 3_000;
const MARKERS = [1, 2, 3];

/**
 * A model turn running one Bash command whose output is `RESULT-<n>`. The command itself does not contain
 * that text (`printf` builds it), so finding it in the transcript proves the tool RESULT was logged, not only
 * the call.
 */
const markerTurn = (n: number) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'Bash',
      input: { command: `printf 'RESULT-%d\\n' ${n}`, description: `Marker ${n}` },
    },
  ],
});

/**
 * The planner creates one item; its implementor runs the marker turns, then its next request (carrying the
 * last marker's result) is held until the server closes. `held` gets that request's arrival time and the
 * tool results it carried.
 */
function markerScenario(): { scenario: Scenario; held: { at: number; toolResults: string }[] } {
  const held: { at: number; toolResults: string }[] = [];
  const scenario = oneItemScenario('kill9-log', [
    ...MARKERS.map(markerTurn),
    {
      check: (request) => {
        held.push({
          at: Date.now(),
          toolResults: request.latestToolResults.map((result) => result.text).join('\n'),
        });
        return undefined;
      },
      delayMs: 600_000,
      text: 'never answered',
    },
  ]);
  return { scenario, held };
}

describe('kill -9 of flotilla run keeps the session log (issue #28 §5)', () => {
  it('every tool call and result of the turns answered ≥ 3 s before the kill is in the transcript', async () => {
    const repo = await fixtures.demoRepository();
    const { scenario, held } = markerScenario();
    const server = await fixtures.serve(scenario);
    const run = startFlotillaRun(fixtures, repo.root, {
      ...repo.gitEnv,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
    });
    await waitForCondition(
      () => held.length > 0,
      180_000,
      "the implementor's request after the last marker",
      () => `${run.output()}\n${JSON.stringify(server.requests.map((r) => [r.route, r.stepIndex, r.unmet]))}`,
    );
    const last = held[0] as { at: number; toolResults: string };
    // The model server got the last marker's result: that turn was answered and its command ran.
    expect(last.toolResults).toContain(`RESULT-${MARKERS.at(-1)}`);
    // The bound, not a guess at how long anything takes: only output younger than 3 s may be lost.
    const waited = Date.now() - last.at;
    if (waited < FLUSH_BOUND_MS) await sleep(FLUSH_BOUND_MS - waited);
    await run.killGroup();

    const implementor = readDatabase(
      repo.root,
      (db) =>
        db
          .prepare("SELECT session_id, status, log_file_path FROM agent_runs WHERE role = 'implementor'")
          .all() as { session_id: string; status: string; log_file_path: string | null }[],
    );
    expect(implementor).toHaveLength(1);
    const { session_id: sessionID, status, log_file_path: logFilePath } = implementor[0] ?? {};
    // Killed mid-run: nothing recorded an end.
    expect(status).toBe('running');
    expect(logFilePath).toEqual(expect.any(String));
    expect(existsSync(logFilePath ?? ''), 'the transcript file, written before the kill').toBe(true);
    const file = readFileSync(logFilePath ?? '', 'utf8');
    const shown = execFileSync(process.execPath, [FLOTILLA_BIN, 'logs', '--full', sessionID ?? ''], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv },
    }).toString();
    for (const transcript of [file, shown]) {
      expect(transcript).toMatch(/^=== Agent Session ===\nType: implementor\n/);
      for (const n of MARKERS) {
        expect(transcript).toContain(`ASSISTANT [tool_use] Bash\n  command: printf 'RESULT-%d\\n' ${n}\n`);
        expect(transcript).toMatch(new RegExp(`USER \\[tool_result\\] ok\\n\\s+RESULT-${n}\\n`));
      }
      // The markers in the order they ran.
      const order = MARKERS.map((n) => transcript.indexOf(`RESULT-${n}\n`));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(transcript).not.toContain('=== Session End ===');
    }
  }, 240_000);
});
