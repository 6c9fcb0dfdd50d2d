import { randomUUID } from 'node:crypto';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AgentRunRequestCommand, EngineEvent, KeptSession, RevisionFile } from '../domain/index.ts';
import { isTerminalRunEvent, SCRIPTED_RUNTIME } from '../domain/index.ts';
import { type Logger, silentLogger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { adoptRuns, withAdoptedRuns } from './adopt-runs.ts';
import { createBudgetGuard } from './budget/create-budget-guard.ts';
import { runsScripted } from './budget/runs-scripted.ts';
import { buildContextDeps } from './build-context-deps.ts';
import { buildRunModeOptions } from './command-executor/build-run-mode-options.ts';
import { buildRunRequest } from './command-executor/build-run-requested-event.ts';
import { buildRefusingAdapter, chooseRuntimeAdapter } from './command-executor/choose-runtime-adapter.ts';
import { createCommandExecutor } from './command-executor/create-command-executor.ts';
import { createConversationBroker } from './command-executor/create-conversation-broker.ts';
import { openPlannerQuestionsItem } from './command-executor/open-planner-questions-item.ts';
import { createRunRegistry } from './command-executor/run-registry.ts';
import { type StartAgentAsyncDeps, startAgentAsync } from './command-executor/start-agent-async.ts';
import { assembleAgentContext } from './context-assembly/assemble-agent-context.ts';
import { createQuestionTimers } from './create-question-timers.ts';
import { type EngineConfig, type Policy, resolveEngineConfig, systemClock } from './engine-config.ts';
import { createEventLoop } from './event-queue/create-event-loop.ts';
import { ALL_HANDLERS } from './handlers/index.ts';
import { createAnswerPoller } from './pollers/create-answer-poller.ts';
import { createFeedbackPoller } from './pollers/create-feedback-poller.ts';
import { createOneWorkItemPoller } from './pollers/create-one-work-item-poller.ts';
import { createPollPacer } from './pollers/create-poll-pacer.ts';
import { createProposalPoller } from './pollers/create-proposal-poller.ts';
import { createRevisionPoller } from './pollers/create-revision-poller.ts';
import { createSpecPoller } from './pollers/create-spec-poller.ts';
import { createWorkItemPoller } from './pollers/create-work-item-poller.ts';
import type { Poller } from './pollers/poller.ts';
import type { AgentRunRequest, RuntimeAdapter } from './runtime-contract/index.ts';
import { createLimitGate } from './scheduler/create-limit-gate.ts';
import { createScheduler } from './scheduler/create-scheduler.ts';
import { estimateTouchedFiles } from './scheduler/estimate-touched-files.ts';
import { applyStateUpdate } from './state-store/apply-state-update.ts';
import { buildInitialEngineState, type EngineState } from './state-store/engine-state.ts';
import { getSpecsRequiringPlanning } from './state-store/selectors/index.ts';

export interface Engine {
  /** Zustand vanilla store holding EngineState; the TUI subscribes to it. */
  store: StoreApi<EngineState>;
  /** First poll of all pollers, then the loop and the poll timers start. */
  start(): Promise<void>;
  /** Cancels runs, waits up to shutdownTimeout, drains the queue deterministically. Idempotent. */
  stop(): Promise<void>;
  /** Adds an event from outside (user actions, tests). Rejected while stopping, except run endings. */
  enqueue(event: EngineEvent): void;
  getState(): EngineState;
  subscribe(listener: (state: EngineState, previous: EngineState) => void): () => void;
  /** Called after each event is applied, with the state after it (for persistence and progress output). */
  onEvent(listener: (event: EngineEvent, state: EngineState) => void): () => void;
  /** Live text of a running session (history first), or null when no such session is running. */
  getAgentStream(sessionID: string): AsyncIterable<string> | null;
  getWorkItemBody(workItemID: string): Promise<string>;
  getRevisionFiles(revisionID: string): Promise<RevisionFile[]>;
  /** Polls every provider now, without waiting. */
  refresh(): void;
  /** Polls every provider and waits for those polls. */
  pollNow(): Promise<void>;
  /**
   * Resolves when no event is queued or processing and no run is active or queued — requests held by a
   * paused budget aside: they wait for the next period or a raised cap, not for the engine.
   */
  whenQuiescent(): Promise<void>;
  /** Runs admitted and not yet finished, and run requests waiting for a slot or a backoff. */
  schedulerStatus(): { active: number; queued: number; maxConcurrentAgents: number };
}

const allowEverything: Policy = () => ({ allowed: true });

function requireConfig(config: EngineConfig): void {
  if (!config?.provider) throw new Error('engine config: `provider` is required');
  for (const part of [
    'workItemReader',
    'workItemWriter',
    'revisionReader',
    'revisionWriter',
    'specReader',
  ] as const) {
    if (!config.provider[part]) throw new Error(`engine config: \`provider.${part}\` is required`);
  }
  if (typeof config.createRuntimeAdapters !== 'function') {
    throw new Error('engine config: `createRuntimeAdapters` must be a function');
  }
}

/** How a run gets its start params (its prompt assembled, or an adopted run's own). */
type Assemble = StartAgentAsyncDeps['assembleContext'];

/** Per-item pollers kept for webhook-named items; past this many the cache starts over. */
const MAX_ITEM_POLLERS = 256;

export function createEngine(config: EngineConfig): Engine {
  requireConfig(config);
  const resolved = resolveEngineConfig(config);
  const logger: Logger = config.logger ?? silentLogger;
  const clock = config.clock ?? systemClock;
  const { provider } = config;
  const store = createStore<EngineState>(() => buildInitialEngineState(withAdoptedRuns(config)));
  const getState = () => store.getState();
  const handlers = config.handlers ?? ALL_HANDLERS;
  const eventListeners = new Set<(event: EngineEvent, state: EngineState) => void>();

  const adapters = config.createRuntimeAdapters();
  const contextDeps = buildContextDeps(config, getState, resolved.handlers.dependencyWaitFor ?? 'approved');
  const registry = createRunRegistry();
  // Inter-agent questions (issue #28 §3): a conversation's events join the back of the queue like a run's.
  const conversations = createConversationBroker({
    emit: (event) => loop.push(event),
    clock,
    logger,
    ...(config.redact !== undefined && { redact: config.redact }),
  });
  const budget = config.budget === undefined ? null : createBudgetGuard(config.budget, clock);

  let stopping = false;
  let stopPromise: Promise<void> | null = null;
  let quiescenceWaiters: (() => void)[] = [];

  /**
   * Events the executor returns while a batch runs are processed right after that batch, ahead of older
   * queued events: the store must show a command's effects before anything else is decided (otherwise a
   * run's completion can be handled while its item still looks `ready`, and a late `in-progress` looks
   * orphaned). Events from outside a batch (run lifecycle, timers) join the back of the queue.
   */
  let batchResults: EngineEvent[] | null = null;
  const emitInternal = (event: EngineEvent) => {
    if (batchResults) batchResults.push(event);
    else loop.push(event);
  };

  /**
   * A run's prompt is assembled once its *Requested event, and everything it led to (the implementor's
   * item moving to in-progress), is in the store: the prompt shows the state the run starts in. Waiters
   * are keyed by event and passed on to the last event each batch produces (results are processed depth
   * first, so that one is applied last).
   */
  const waitingForApplied = new Map<EngineEvent, (() => void)[]>();
  const whenApplied = (event: EngineEvent) =>
    new Promise<void>((resolve) => {
      waitingForApplied.set(event, [...(waitingForApplied.get(event) ?? []), resolve]);
    });
  function passOnWaiters(events: readonly EngineEvent[], results: readonly EngineEvent[]): void {
    const waiting = events.flatMap((event) => waitingForApplied.get(event) ?? []);
    for (const event of events) waitingForApplied.delete(event);
    if (waiting.length === 0) return;
    const last = results.at(-1);
    if (last === undefined) for (const resolve of waiting) resolve();
    else waitingForApplied.set(last, [...(waitingForApplied.get(last) ?? []), ...waiting]);
  }

  const { resources } = config;
  const limits = createLimitGate({ adapters, accounts: config.accounts ?? [], clock });
  const scheduler = createScheduler({
    parkedUntil: limits.parkedUntil,
    config: resolved.scheduler,
    clock,
    logger,
    getState,
    generateSessionID: config.generateSessionID ?? randomUUID,
    emit: emitInternal,
    // Scripted runs' costs are made up: they never count against a cap, and no cap stops or refuses them.
    ...(budget !== null && {
      checkBudget: (command) =>
        runsScripted(command, getState(), adapters)
          ? { ok: true, maxBudgetUsd: null, events: [] }
          : budget.admit(command),
    }),
    ...(resources !== undefined && {
      checkResources: (command) => resources.check(limits.runtimeOf(command, getState())),
    }),
    startRun: (run) => {
      const choice = limits.chooseAccount(run.command, getState());
      const built = buildRunRequest(
        run,
        resolved.branchPrefix,
        choice?.account,
        buildRunModeOptions(run.command, getState(), config.modes ?? {}),
      );
      const { event } = built;
      const request =
        run.maxBudgetUsd === undefined ? built.request : { ...built.request, maxBudgetUsd: run.maxBudgetUsd };
      // The work item's `runtime:` label or the role's runtime, if available; else the run is refused.
      const runtime = chooseRuntimeAdapter(request, getState(), adapters);
      // A scripted run is not tracked by the budget at all: its made-up usage counts against no cap.
      if (!(runtime.ok && runtime.adapter.runtime === SCRIPTED_RUNTIME)) {
        budget?.runStarted(
          run.sessionID,
          request.role,
          request.role === 'planner' ? null : request.workItemID,
        );
      }
      const requestApplied = whenApplied(event);
      emitInternal(event);
      const switched = limits.buildAccountSwitched(run, choice, getState());
      if (switched !== null) emitInternal(switched);
      runAgent(
        request,
        runtime.ok ? runtime.adapter : buildRefusingAdapter(runtime.error),
        async (toAssemble) => {
          await requestApplied;
          return assembleAgentContext(toAssemble, contextDeps);
        },
      );
    },
    revalidate: (command, state) => {
      // A queued planner plans what needs planning now, not what did when it was queued.
      let current = command;
      // A resume plans exactly what its session was given.
      if (command.type === 'requestPlannerRun' && command.resume === undefined) {
        const approved = Object.values(state.specs).filter((spec) => spec.frontmatterStatus === 'approved');
        if (getSpecsRequiringPlanning(state).length === 0)
          return { ok: false, reason: 'nothing left to plan' };
        current = {
          type: 'requestPlannerRun',
          specPaths: approved.map((spec) => spec.filePath),
          specSHAs: Object.fromEntries(approved.map((spec) => [spec.filePath, spec.blobSHA])),
        };
      }
      const verdict = executor.checkRunRequest(current, state);
      return verdict.ok ? { ok: true, command: current } : verdict;
    },
  });

  /** One admitted (or adopted) run from its start to its terminal event (start-agent-async.ts). */
  function runAgent(request: AgentRunRequest, adapter: RuntimeAdapter, assembleContext: Assemble): void {
    void startAgentAsync(request, {
      adapter,
      assembleContext,
      registry,
      // A run's lifecycle is asynchronous: its events always join the back of the queue, never a batch.
      emit: (lifecycleEvent) => loop.push(lifecycleEvent),
      clock,
      logger,
      stallTimeoutMs: resolved.scheduler.stallTimeout * 1000,
      ...(config.fence !== undefined && { fence: config.fence }),
      ...(budget !== null && { budget }),
      conversations,
      ...(config.redact !== undefined && { redact: config.redact }),
      onFinished: (sessionID) => {
        scheduler.runFinished(sessionID);
        checkQuiescence();
      },
      openPlannerQuestions: (planner) => {
        const open = () =>
          openPlannerQuestionsItem(planner, getState(), { workItemWriter: provider.workItemWriter });
        return config.fence === undefined ? open() : config.fence(open);
      },
    });
  }

  /**
   * Runs a previous process left going (cluster mode): each holds its slot before the first poll (so its
   * item is neither orphaned nor dispatched again) and its result is awaited once that poll is applied.
   */
  function adoptConfiguredRuns(firstPoll: Promise<unknown>): void {
    adoptRuns(config.adoptedRuns ?? [], {
      adapters,
      takeSlot: (sessionID, key, workItemID) => scheduler.adopt(sessionID, key, workItemID),
      runAgent: (request, adapter, params) => {
        if (adapter.runtime !== SCRIPTED_RUNTIME)
          budget?.runStarted(
            request.sessionID,
            request.role,
            request.role === 'planner' ? null : request.workItemID,
          );
        runAgent(request, adapter, async () => {
          await firstPoll;
          return params;
        });
      },
    });
  }

  const executor = createCommandExecutor({
    workItemWriter: provider.workItemWriter,
    revisionWriter: provider.revisionWriter,
    scheduler,
    registry,
    policy: config.policy ?? allowEverything,
    clock,
    logger,
    // Called only while commands run, after pollAll below is defined.
    requestPoll: () => void pollAll(),
    discardSession: (session) => discardKeptSession(session),
    ...(config.fence !== undefined && { fence: config.fence }),
    estimateFiles: (command, state) => estimateRunFiles(command, state),
  });

  /**
   * What an implementor run will change: its item's text names files, a rework's revision has them. A read
   * that fails leaves it unknown (a scheduling hint, never a reason to refuse the run).
   */
  async function estimateRunFiles(
    command: AgentRunRequestCommand,
    state: EngineState,
  ): Promise<string[] | null> {
    if (command.type !== 'requestImplementorRun') return null;
    const item = state.workItems[command.workItemID];
    const body = await provider.workItemReader.getWorkItemBody(command.workItemID).catch(() => '');
    const revisionFiles =
      item?.linkedRevision == null
        ? []
        : (await provider.revisionReader.getRevisionFiles(item.linkedRevision).catch(() => [])).map(
            (file) => file.path,
          );
    const text = `${item?.title ?? ''}\n${body}`;
    const named = estimateTouchedFiles({ body: text, revisionFiles });
    if (named !== null || config.listRepositoryFiles === undefined) return named;
    const repositoryFiles = await config.listRepositoryFiles().catch(() => []);
    return estimateTouchedFiles({ body: text, revisionFiles, repositoryFiles });
  }

  /** The runtime that kept a session removes it (by the runtime name recorded with it). */
  async function discardKeptSession(session: KeptSession): Promise<void> {
    const roleAdapters = [adapters.planner, adapters.implementor, adapters.reviewer];
    const named = adapters.choices?.names.includes(session.runtime)
      ? adapters.choices.get(session.runtime)
      : null;
    const owner =
      (named?.discardSession ? named : undefined) ??
      roleAdapters.find((adapter) => adapter.runtime === session.runtime && adapter.discardSession) ??
      roleAdapters.find((adapter) => adapter.discardSession);
    try {
      await owner?.discardSession?.(session);
    } catch (error) {
      logger.warn('could not discard a kept session', { error: messageOf(error) });
    }
  }

  // Waiting items (also those restored from storage) go to needs-refinement once questionTimeout passes.
  const questionTimers = createQuestionTimers({
    clock,
    timeoutMs: resolved.questionTimeout * 1000,
    emit: (event) => loop.push(event),
  });

  function recordError(source: string, error: unknown, event: EngineEvent): void {
    const message = `${source} threw on ${event.type}: ${messageOf(error)}`;
    logger.error(message, { source, event: event.type });
    try {
      store.setState(
        applyStateUpdate(getState(), { type: 'errorRecorded', source, message, at: clock.now() }).state,
        true,
      );
    } catch (recordFailure) {
      logger.error('could not record an error in the state', { error: messageOf(recordFailure) });
    }
  }

  /**
   * Applies every event's state update first, then runs the handlers of each against the state after all
   * of them, then executes their commands. A batch is one event from the queue, or everything one poll found
   * (so no command runs against a half-applied poll).
   */
  async function processBatch(events: EngineEvent[]): Promise<void> {
    const startedAt = performance.now();
    for (const event of events) {
      try {
        const update = applyStateUpdate(getState(), event);
        for (const warning of update.warnings) logger.warn(warning, { event: event.type });
        if (update.state !== getState()) store.setState(update.state, true);
      } catch (error) {
        recordError('state update', error, event);
      }
    }
    const snapshot = getState();
    for (const event of events) {
      for (const listener of eventListeners) {
        try {
          listener(event, snapshot);
        } catch (error) {
          logger.warn('event listener threw', { error: messageOf(error) });
        }
      }
    }
    const results: EngineEvent[] = [];
    batchResults = results;
    try {
      await runHandlersAndCommands(events, snapshot);
    } catch (error) {
      passOnWaiters(events, []);
      throw error;
    } finally {
      batchResults = null;
    }
    loop.pushFront(results);
    passOnWaiters(events, results);
    config.instrumentation?.batchProcessed(events, performance.now() - startedAt);
    checkQuiescence();
  }

  async function runHandlersAndCommands(events: EngineEvent[], snapshot: EngineState): Promise<void> {
    for (const event of events) {
      const commands = [];
      for (const handler of handlers) {
        try {
          commands.push(...handler.handle(event, snapshot, resolved.handlers));
        } catch (error) {
          recordError(`handler ${handler.name}`, error, event);
        }
      }
      for (const command of commands) {
        logger.debug('executing command', { command: command.type, event: event.type });
        const results = await executor.execute(command, snapshot);
        for (const resultEvent of results) emitInternal(resultEvent);
      }
    }
  }

  const pollerDeps = { logger, clock };
  const pollerFor = {
    workItems: {
      poller: createWorkItemPoller({ ...pollerDeps, reader: provider.workItemReader }),
      every: resolved.pollIntervals.workItems,
    },
    revisions: {
      poller: createRevisionPoller({ ...pollerDeps, reader: provider.revisionReader }),
      every: resolved.pollIntervals.revisions,
    },
    specs: {
      poller: createSpecPoller({ ...pollerDeps, reader: provider.specReader }),
      every: resolved.pollIntervals.specs,
    },
  };
  const answers = {
    poller: createAnswerPoller({ ...pollerDeps, reader: provider.workItemReader }),
    every: resolved.pollIntervals.workItems,
  };
  // Humans' reviews and mentions on revisions (issue #26): read with the revisions, after them in a batch.
  const feedback = {
    poller: createFeedbackPoller({ ...pollerDeps, reader: provider.revisionReader }),
    every: resolved.pollIntervals.revisions,
  };
  // Humans' `/accept` and `/reject` on the pending proposal's item (issue #29), read with the work items.
  const proposals = {
    poller: createProposalPoller({ ...pollerDeps, reader: provider.workItemReader }),
    every: resolved.pollIntervals.workItems,
  };
  const pollers = [pollerFor.workItems, answers, proposals, pollerFor.revisions, feedback, pollerFor.specs];
  // One work item a change names (a webhook on its issue): read alone when the store holds it already; a
  // new item needs the list (only it applies the provider's filter of what is a work item). Kept per id,
  // so repeated deliveries for one item share a poll and its failure streak.
  const itemPollers = new Map<string, Poller>();
  function pollerForItem(id: string | undefined): Poller | undefined {
    if (id === undefined || getState().workItems[id] === undefined) return undefined;
    let poller = itemPollers.get(id);
    if (poller === undefined) {
      if (itemPollers.size >= MAX_ITEM_POLLERS) itemPollers.clear();
      poller = createOneWorkItemPoller({ ...pollerDeps, reader: provider.workItemReader }, id);
      itemPollers.set(id, poller);
    }
    return poller;
  }
  const duePollers = new Set<Poller>();
  const pollTimers: ReturnType<typeof setInterval>[] = [];
  let unsubscribeFromProvider: (() => void) | null = null;

  async function runDuePolls(): Promise<void> {
    const due = [...duePollers];
    duePollers.clear();
    const found = await Promise.all(due.map((poller) => poller.poll(getState)));
    await processBatch(found.flat());
  }

  function requestPolls(which: Poller[]): Promise<void> {
    for (const poller of which) duePollers.add(poller);
    return loop.requestPoll();
  }
  const pollAll = () => requestPolls(pollers.map(({ poller }) => poller));

  const loop = createEventLoop({ process: (event) => processBatch([event]), poll: runDuePolls, logger });

  /** Wakes whenQuiescent() callers so they re-check; called whenever runs end or events finish. */
  function checkQuiescence(): void {
    const waiters = quiescenceWaiters;
    quiescenceWaiters = [];
    for (const resolve of waiters) resolve();
  }

  const engine: Engine = {
    store,
    async start() {
      loop.start();
      questionTimers.sync(getState());
      store.subscribe((state) => {
        if (!stopping) questionTimers.sync(state);
      });
      // A change the provider reports itself (local checks finishing) is polled now, not at the interval.
      unsubscribeFromProvider =
        provider.onChange?.((change, scope) => {
          const due = pollerFor[change];
          // An unknown change (a newer provider) is ignored: the regular polls still see it.
          // Replies to questions and decisions on proposals are comments on work items.
          if (!stopping && due !== undefined)
            void requestPolls(
              change === 'workItems'
                ? [pollerForItem(scope?.workItemID) ?? due.poller, answers.poller, proposals.poller]
                : change === 'revisions'
                  ? [due.poller, feedback.poller]
                  : [due.poller],
            );
        }) ?? null;
      const firstPoll = pollAll();
      adoptConfiguredRuns(firstPoll);
      await firstPoll;
      for (const { poller, every } of pollers) {
        // A provider short of quota (GitHub) stretches the interval: `pollIntervalFactor`.
        const pace = createPollPacer(() => provider.pollIntervalFactor?.() ?? 1);
        const timer = setInterval(() => {
          if (pace()) void requestPolls([poller]);
        }, every * 1000);
        timer.unref();
        pollTimers.push(timer);
      }
      logger.info('engine started', { maxConcurrentAgents: resolved.scheduler.maxConcurrentAgents });
    },
    stop() {
      stopPromise ??= (async () => {
        stopping = true;
        for (const timer of pollTimers) clearInterval(timer);
        questionTimers.stop();
        unsubscribeFromProvider?.();
        scheduler.stop();
        const active = registry.sessionIDs();
        logger.info('engine stopping', { activeRuns: active.length });
        for (const sessionID of active) registry.cancel(sessionID, 'cancelled');
        const deadline = Date.now() + resolved.shutdownTimeout * 1000;
        while (scheduler.activeCount() > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (scheduler.activeCount() > 0) {
          logger.warn('shutdown timeout: abandoning runs', { sessions: scheduler.activeSessionIDs() });
        }
        await loop.drainAndStop();
        // Events the stopped loop dropped will never be applied: their runs go on (and see the cancel).
        for (const resolve of [...waitingForApplied.values()].flat()) resolve();
        waitingForApplied.clear();
        checkQuiescence();
        logger.info('engine stopped');
      })();
      return stopPromise;
    },
    enqueue(event) {
      if (stopping && !isTerminalRunEvent(event)) {
        logger.debug('event rejected: engine is stopping', { event: event.type });
        return;
      }
      loop.push(event);
    },
    getState,
    subscribe: (listener) => store.subscribe(listener),
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    getAgentStream(sessionID) {
      return registry.getStream(sessionID)?.subscribe() ?? null;
    },
    getWorkItemBody: (workItemID) => provider.workItemReader.getWorkItemBody(workItemID),
    getRevisionFiles: (revisionID) => provider.revisionReader.getRevisionFiles(revisionID),
    refresh() {
      void pollAll();
    },
    pollNow: pollAll,
    async whenQuiescent() {
      while (true) {
        await loop.whenIdle();
        const queued = scheduler.queuedCount() - scheduler.budgetWaitingCount();
        if (scheduler.activeCount() === 0 && queued === 0 && loop.isIdle()) return;
        await new Promise<void>((resolve) => quiescenceWaiters.push(resolve));
      }
    },
    schedulerStatus: () => ({
      active: scheduler.activeCount(),
      queued: scheduler.queuedCount(),
      maxConcurrentAgents: resolved.scheduler.maxConcurrentAgents,
    }),
  };
  return engine;
}
