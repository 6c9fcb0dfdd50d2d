/**
 * The agents' records on PostgreSQL in cluster mode (issue #33, src/storage/README.md "Two backends"): a
 * controller in the repository with `approval.plans: required`, a worker in another clone playing the runs,
 * and a second clone (another machine, its own `.flotilla/`) running only the CLI. The plan waits as a
 * proposal that the second clone lists and the repository's CLI accepts; the implementor stores a memory,
 * records a decision and logs a question through its tools; the second clone's `proposals`, `memory`,
 * `questions` and `stats` show them, its `memory import` is what the repository's CLI then lists (and
 * `flotilla prompt` there gives, with the item's task context), and the task context, proposals, notes and
 * memories are in PostgreSQL only — no clone's SQLite holds them. (Another clone's `work show` and `prompt`
 * need the item, which the local tracker still keeps in the controller's SQLite.)
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedRemoteWithClones, startWorker, untilTakingRuns } from '../support/cluster-processes.ts';
import { createRunFixtures, FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { readDatabase, startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { oneItemScenario, WRITE_GREET } from '../support/run-scenarios.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';
import { startPostgres, type TestPostgres } from '../support/start-postgres.ts';

const run = promisify(execFile);
const fixtures = createRunFixtures();
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterEach(() => fixtures.cleanup());
afterAll(() => postgres?.stop());

const TIMEOUT = 300_000;
const STEP_TIMEOUT = 90_000;
const MEMORY = 'The greeting module is plain ESM: import it with a .js extension.';

const toolUse = (tool: string, input: Record<string, string>) => ({
  type: 'tool_use' as const,
  name: `mcp__flotilla__${tool}`,
  input,
});

/** The tables of the agents' records, and how many rows a database holds in each. */
const RECORD_TABLES = ['task_context', 'proposals', 'memories', 'agent_notes'] as const;

describe('flotilla run in cluster mode: task context, proposals, memory and notes in PostgreSQL', () => {
  it(
    "another clone's CLI lists the controller's proposal, memory and notes; its import reaches the controller's CLI",
    async () => {
      const server = await fixtures.serve(
        oneItemScenario('shared-records', [
          {
            content: [
              toolUse('store_memory', { topic: 'module format', text: MEMORY }),
              toolUse('record_decision', { decision: 'greet returns a string', why: 'simplest' }),
              toolUse('log_question', { text: 'Should greet trim the name?' }),
            ],
          },
          { content: [WRITE_GREET] },
          { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'greet added' } },
        ]),
      );
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        approval: { plans: 'required' },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
      });
      const [machineB, workerClone] = await sharedRemoteWithClones(fixtures, repo.root, [
        'machine-b',
        'worker',
      ]);
      if (machineB === undefined || workerClone === undefined) throw new Error('no clones');
      const env = {
        ...repo.gitEnv,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
        CLAUDE_CODE_MAX_RETRIES: '0',
        FLOTILLA_DATABASE_URL: postgres.url,
      };
      const flotilla = async (cwd: string, args: string[]): Promise<string> =>
        (await run(process.execPath, [FLOTILLA_BIN, ...args], { cwd, env: { ...process.env, ...env } }))
          .stdout;
      const onB = (args: string[]) => flotilla(machineB, args);
      const onA = (args: string[]) => flotilla(repo.root, args);

      const worker = startWorker(fixtures, workerClone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env);
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), worker.output()].join('\n---\n');
      await controller.waitForOutput("as the cluster's controller (lease token 1)", STEP_TIMEOUT);

      // The plan waits for a human: B's CLI lists it from PostgreSQL, A's CLI accepts it.
      const proposalsStored = () =>
        readClusterState(postgres.url, (sql) => sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM proposals'))
          ?.n ?? 0;
      await waitForCondition(() => proposalsStored() > 0, STEP_TIMEOUT, "the controller's proposal", context);
      const pending = JSON.parse(await onB(['proposals', 'list', '--json'])) as {
        id: string;
        status: string;
      }[];
      expect(pending.map((proposal) => proposal.status)).toEqual(['pending']);
      const proposalID = pending[0]?.id as string;
      await onA(['proposals', 'accept', proposalID]);

      const reviewed = () =>
        readClusterState(postgres.url, (sql) =>
          sql.get<{ n: number }>(
            "SELECT COUNT(*) AS n FROM agent_runs WHERE role = 'reviewer' AND status = 'completed'",
          ),
        )?.n ?? 0;
      await waitForCondition(() => reviewed() > 0, STEP_TIMEOUT, "the reviewer's completed run", context);
      await controller.killGroup();

      // B's machine: the proposal as decided, the memory and the notes, through its own clone's CLI.
      const decided = JSON.parse(await onB(['proposals', 'show', proposalID, '--json'])) as {
        status: string;
      };
      expect(decided.status).toBe('accepted');
      const memories = JSON.parse(await onB(['memory', 'list', '--json'])) as {
        topic: string;
        text: string;
      }[];
      expect(memories.map(({ topic, text }) => ({ topic, text }))).toEqual([
        { topic: 'module format', text: MEMORY },
      ]);
      const questions = JSON.parse(await onB(['questions', '--json'])) as { text: string }[];
      expect(questions.map((question) => question.text)).toEqual(['Should greet trim the name?']);
      expect(await onB(['stats', '--since', 'all'])).toContain(
        'Decisions agents recorded: 1   questions they logged: 1',
      );
      // The task context of the item the plan created (a run's end): in PostgreSQL, shown by A's `work show`.
      const taskContext = readClusterState(postgres.url, (sql) =>
        sql.all<{ work_item_id: string; type: string }>('SELECT work_item_id, type FROM task_context'),
      );
      expect(taskContext.length).toBeGreaterThan(0);
      const itemID = taskContext[0]?.work_item_id as string;
      const shown = await onA(['work', 'show', itemID]);
      expect(shown).toContain('Decisions (1, oldest first):');
      expect(shown).toContain('greet returns a string');
      expect(shown).toContain('Should greet trim the name?');

      // B exports, edits and imports the memories; A's CLI (and the next prompt) reads what B wrote.
      const exported = join(machineB, 'memories.md');
      await onB(['memory', 'export', '--output', exported]);
      writeFileSync(exported, `${readFileSync(exported, 'utf8')}\n## tests\n\nRun npm test.\n`);
      expect(await onB(['memory', 'import', exported])).toContain('2 memories imported');
      const onAAfter = JSON.parse(await onA(['memory', 'list', '--json'])) as { topic: string }[];
      expect(onAAfter.map((memory) => memory.topic).sort()).toEqual(['module format', 'tests']);
      const prompt = await onA(['prompt', 'implementor', itemID]);
      expect(prompt).toContain(MEMORY);
      expect(prompt).toContain('- **tests** (human, ');
      // The item's task context, read from PostgreSQL: the implementor's summary.
      expect(prompt).toContain('## Task context');
      expect(prompt).toMatch(/### \[implementor · claude\] implementation_summary — [^\n]*\n+greet added/);

      // Neither machine's SQLite holds them: the records are only in PostgreSQL.
      for (const root of [repo.root, machineB]) {
        const local = readDatabase(root, (db) =>
          RECORD_TABLES.map(
            (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
          ),
        );
        expect({ root, local }).toEqual({ root, local: RECORD_TABLES.map(() => 0) });
      }
    },
    TIMEOUT,
  );
});
