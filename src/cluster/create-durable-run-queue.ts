import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { AgentRunMessage, AgentRunReply } from './agent-run-message.ts';
import { withSchemaLock } from './with-schema-lock.ts';

/** The DBOS application every Flotilla process of a cluster belongs to (it scopes workflows and queues). */
const APPLICATION = 'flotilla';
/**
 * One application version for every process: DBOS otherwise derives it from a hash of the registered code,
 * and a queued run is only taken by an executor of the latest version.
 */
const APPLICATION_VERSION = 'flotilla-run-queue-1';
const WORKFLOW_NAME = 'flotillaAgentRun';
export const RUN_QUEUE_NAME = 'flotilla-agent-runs';
/**
 * A run a new leader waits on: queued, running (or to be requeued by the dead-worker sweep), or finished with
 * its reply. Cancelled or errored workflows are not: their runs are recorded as interrupted.
 */
const ADOPTABLE_STATUSES: ReadonlySet<string> = new Set(['ENQUEUED', 'PENDING', 'SUCCESS']);
/** DBOS's default `idle_in_transaction_session_timeout` for its connections (ms). */
const IDLE_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The URL DBOS is given: the server applies DBOS's idle-transaction timeout at connect, through the startup
 * packet's `options`. Without it, DBOS 5.3.0 sets the timeout itself from its pool's `connect` event
 * (node_modules/@dbos-inc/dbos-sdk/dist/src/system_database.js:657, `client.query(\`SET
 * idle_in_transaction_session_timeout …\`)` queued ahead of the borrower's query), which pg 8.23 reports as
 * "Calling client.query() when the client is already executing a query is deprecated" on every process.
 * DBOS skips its SET when the URL already sets the timeout; a URL that sets it keeps its own value.
 */
export function dbosDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options') ?? '';
  if (options.includes('idle_in_transaction_session_timeout')) return databaseUrl;
  const setting = `-c idle_in_transaction_session_timeout=${IDLE_TRANSACTION_TIMEOUT_MS}`;
  url.searchParams.set('options', options === '' ? setting : `${options} ${setting}`);
  return url.toString();
}

/** The run was cancelled (by the controller) before it finished. */
export class RunCancelledError extends Error {
  constructor(runID: string) {
    super(`run ${runID} was cancelled`);
    this.name = 'RunCancelledError';
  }
}

export interface DurableRunQueueOptions {
  /** The PostgreSQL URL (from the environment variable `cluster.postgres` names). */
  databaseUrl: string;
  logger: Logger;
  /** How often waiting sides poll the database (result, queue, cancellation); default 500 ms. */
  pollIntervalMs?: number;
}

/** What a worker's slot is given for each run it takes. */
export interface RunExecution {
  runID: string;
  /** Resolves true once the controller cancelled the run (polled); the executor then cancels the agent. */
  isCancelled(): Promise<boolean>;
}

export interface RunExecutor {
  /** This process's executor id, unique in the cluster (its heartbeat row has the same key). */
  executorID: string;
  /** Runs one agent run to its reply. Never throws for the run's own failure: that is a reply. */
  execute(message: AgentRunMessage, execution: RunExecution): Promise<AgentRunReply>;
}

export interface DurableRunQueue {
  /**
   * Controller: creates or migrates DBOS's tables and sets the queue's limits — `fleetConcurrency` runs at
   * once across the cluster, one per executor (a worker's `--slots N` is N executors).
   */
  configure(limits: { fleetConcurrency: number }): Promise<void>;
  /** Controller: enqueues the run under `runID` (its workflow id); a second enqueue of the id is a no-op. */
  enqueue(runID: string, message: AgentRunMessage): Promise<void>;
  /** Controller: the run's reply once a worker finished it; rejects RunCancelledError when cancelled. */
  result(runID: string): Promise<AgentRunReply>;
  /**
   * Controller: of these runs, those a new leader can wait on (adopt): their workflow exists and is queued,
   * running or finished with a reply — with the message each was enqueued with.
   */
  adoptable(runIDs: readonly string[]): Promise<Map<string, AgentRunMessage>>;
  /** Controller: cancels the run, queued or running (the worker polls for it). */
  cancel(runID: string): Promise<void>;
  /**
   * Controller: puts the runs a dead executor had started back on the queue, as they were (same id, same
   * message): another executor takes them. Returns their ids.
   */
  requeueRunsOf(executorID: string): Promise<string[]>;
  /**
   * Controller: puts back on the queue the runs in progress on an executor that is not alive (`alive` is
   * read after the runs, so an executor that took one has its row by then). Catches what `requeueRunsOf`
   * cannot: a run an executor took after it was declared dead (paused, it woke and dequeued before its
   * heartbeat stopped it). Returns their ids.
   */
  requeueOrphanedRuns(alive: () => Promise<ReadonlySet<string>>): Promise<string[]>;
  /** Anyone: the runs waiting on the queue, and the runs in progress per executor (for `flotilla workers`). */
  status(): Promise<{ queued: number; runningByExecutor: Record<string, number> }>;
  /**
   * Worker: this process becomes an executor taking one run at a time from the queue. DBOS is one per
   * process: a second `serve` in the same process throws.
   */
  serve(executor: RunExecutor): Promise<void>;
  /** Stops serving (runs in flight are abandoned: the controller requeues them) and closes connections. */
  close(): Promise<void>;
}

let serving = false;

/**
 * The cluster's durable run queue on DBOS Transact (src/cluster/README.md "Why DBOS"): each agent run is a
 * workflow in PostgreSQL, enqueued by the controller and taken by a worker's executor under the queue's
 * limits. The only module that knows DBOS: the rest of Flotilla sees this interface.
 */
export function createDurableRunQueue(options: DurableRunQueueOptions): DurableRunQueue {
  const { logger } = options;
  const databaseUrl = dbosDatabaseUrl(options.databaseUrl);
  const pollingIntervalMs = options.pollIntervalMs ?? 500;
  const dbosLogger = {
    info: (entry: unknown) => logger.debug(`dbos: ${String(entry)}`),
    debug: (entry: unknown) => logger.debug(`dbos: ${String(entry)}`),
    warn: (entry: unknown) => logger.warn(`dbos: ${String(entry)}`),
    error: (entry: unknown) => logger.error(`dbos: ${messageOf(entry)}`),
  };
  let migrated: Promise<void> | null = null;
  const migrate = () => {
    migrated ??= withSchemaLock({ url: databaseUrl }, () => DBOS.migrate(databaseUrl)).catch(
      (error: unknown) => {
        migrated = null;
        throw error;
      },
    );
    return migrated;
  };
  let client: Promise<DBOSClient> | null = null;
  const clientOf = () => {
    client ??= migrate().then(() =>
      DBOSClient.create({
        systemDatabaseUrl: databaseUrl,
        applicationName: APPLICATION,
        logger: dbosLogger,
        systemDatabasePoolSize: 4,
      }),
    );
    return client;
  };
  let launched = false;

  return {
    async configure({ fleetConcurrency }) {
      await (await clientOf()).registerQueue(RUN_QUEUE_NAME, {
        globalConcurrency: fleetConcurrency,
        workerConcurrency: 1,
        minPollingIntervalMs: pollingIntervalMs,
        onConflict: 'always_update',
      });
    },
    async enqueue(runID, message) {
      await (await clientOf()).enqueue(
        {
          queueName: RUN_QUEUE_NAME,
          workflowName: WORKFLOW_NAME,
          workflowID: runID,
          appVersion: APPLICATION_VERSION,
          applicationName: APPLICATION,
        },
        message,
      );
    },
    async result(runID) {
      try {
        return await (await clientOf())
          .retrieveWorkflow<AgentRunReply>(runID)
          .getResult({ pollingIntervalMs });
      } catch (error) {
        if (error instanceof Error && error.name === 'DBOSAwaitedWorkflowCancelledError')
          throw new RunCancelledError(runID);
        throw error;
      }
    },
    async adoptable(runIDs) {
      const adoptable = new Map<string, AgentRunMessage>();
      if (runIDs.length === 0) return adoptable;
      const found = await (await clientOf()).listWorkflows({
        workflowIDs: [...runIDs],
        queueName: RUN_QUEUE_NAME,
        loadInput: true,
        loadOutput: false,
      });
      for (const workflow of found) {
        const message = workflow.input?.[0] as AgentRunMessage | undefined;
        if (ADOPTABLE_STATUSES.has(workflow.status) && message?.params?.sessionID === workflow.workflowID)
          adoptable.set(workflow.workflowID, message);
      }
      return adoptable;
    },
    async cancel(runID) {
      await (await clientOf()).cancelWorkflow(runID);
    },
    async requeueRunsOf(executorID) {
      const dbos = await clientOf();
      const pending = await dbos.listWorkflows({
        status: 'PENDING',
        executorId: executorID,
        queueName: RUN_QUEUE_NAME,
      });
      const ids = pending.map((status) => status.workflowID);
      if (ids.length > 0) await dbos.resumeWorkflows(ids, { queueName: RUN_QUEUE_NAME });
      return ids;
    },
    async requeueOrphanedRuns(alive) {
      const dbos = await clientOf();
      const pending = await dbos.listWorkflows({
        status: 'PENDING',
        queueName: RUN_QUEUE_NAME,
        loadInput: false,
        loadOutput: false,
      });
      if (pending.length === 0) return [];
      const living = await alive();
      const ids = pending
        .filter((run) => run.executorId === undefined || !living.has(run.executorId))
        .map((run) => run.workflowID);
      if (ids.length > 0) await dbos.resumeWorkflows(ids, { queueName: RUN_QUEUE_NAME });
      return ids;
    },
    async status() {
      const dbos = await clientOf();
      const [queued, running] = await Promise.all([
        dbos.listWorkflows({
          status: 'ENQUEUED',
          queueName: RUN_QUEUE_NAME,
          loadInput: false,
          loadOutput: false,
        }),
        dbos.listWorkflows({
          status: 'PENDING',
          queueName: RUN_QUEUE_NAME,
          loadInput: false,
          loadOutput: false,
        }),
      ]);
      const runningByExecutor: Record<string, number> = {};
      for (const run of running) {
        const executor = run.executorId ?? 'unknown';
        runningByExecutor[executor] = (runningByExecutor[executor] ?? 0) + 1;
      }
      return { queued: queued.length, runningByExecutor };
    },
    async serve(executor) {
      if (serving) throw new Error('this process already serves the run queue (DBOS is one per process)');
      serving = true;
      await migrate();
      const statusClient = await clientOf();
      DBOS.setConfig({
        name: APPLICATION,
        systemDatabaseUrl: databaseUrl,
        systemDatabasePoolSize: 4,
        executorID: executor.executorID,
        applicationVersion: APPLICATION_VERSION,
        listenQueues: [RUN_QUEUE_NAME],
        maxConcurrentQueueDispatches: 1,
        logger: dbosLogger,
        runMigrations: false,
      });
      DBOS.registerWorkflow(
        async (message: AgentRunMessage): Promise<AgentRunReply> => {
          const runID = DBOS.workflowID;
          if (runID === undefined) throw new Error('a run outside its workflow');
          return executor.execute(message, {
            runID,
            isCancelled: async () => (await statusClient.getWorkflow(runID))?.status === 'CANCELLED',
          });
        },
        { name: WORKFLOW_NAME },
      );
      await DBOS.launch();
      launched = true;
    },
    async close() {
      if (launched) {
        launched = false;
        await DBOS.shutdown({ deregister: true });
        serving = false;
      }
      const opened = client;
      client = null;
      if (opened !== null) await (await opened.catch(() => null))?.destroy();
    },
  };
}
