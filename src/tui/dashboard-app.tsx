import { Box, type Key, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type EngineEvent, isAgentRunActive, isScriptedRun } from '../domain/index.ts';
import { getActivePlannerRun, getSpecsRequiringPlanning } from '../engine/state-store/selectors/index.ts';
import { shortenTranscript } from '../session-log/shorten-transcript.ts';
import { buildItemActions, type ItemAction } from './actions/build-item-actions.ts';
import { DetailPane } from './components/detail-pane.tsx';
import { Header } from './components/header.tsx';
import { WorkItemList } from './components/work-item-list.tsx';
import type { DashboardDeps } from './dashboard-deps.ts';
import { useDetailData } from './hooks/use-detail-data.ts';
import { useTerminalSize } from './hooks/use-terminal-size.ts';
import { useThrottledSubscription } from './hooks/use-throttled-subscription.ts';
import {
  buildDetailContent,
  type DetailContent,
  type DetailLine,
  type Fetched,
} from './view-model/build-detail-content.ts';
import { buildDiffLines } from './view-model/build-diff-lines.ts';
import { buildHeaderSummary } from './view-model/build-header-summary.ts';
import { buildHelpContent } from './view-model/build-help-content.ts';
import { buildListLayout } from './view-model/build-list-layout.ts';
import { buildPlannerContent } from './view-model/build-planner-content.ts';
import { buildViewport, createWrapCache } from './view-model/build-viewport.ts';
import {
  buildWorkItemSections,
  type SectionKey,
  type WorkItemRow,
} from './view-model/build-work-item-sections.ts';
import { filterWorkItemSections } from './view-model/filter-work-item-sections.ts';
import { sanitizeTerminalText } from './view-model/sanitize-terminal-text.ts';
import { summarizeFeedback } from './view-model/summarize-feedback.ts';

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 20;
/**
 * Engine and stream changes re-render at most this often (keys re-render at once). Ink re-tokenizes the whole
 * screen on each frame (~45 ms at 200×50, npm run bench:tui), so 5 background frames a second keep a busy
 * dashboard under half a core while a live stream still reads as live.
 */
const RENDER_INTERVAL_MS = 200;
const FLASH_MS = 8000;

type Phase = 'starting' | 'running' | 'stopping' | 'start-failed';
/** Help, or lines fetched for a title: a file (transcript, checks log) or a revision's diff. */
type Overlay = { kind: 'help' } | { kind: 'fetched'; title: string; content: Fetched<DetailLine[]> };
interface Prompt {
  text: string;
  onYes: () => void;
}
interface Flash {
  text: string;
  tone: 'info' | 'error';
  at: number;
}

/**
 * The dashboard: header, sectioned work item list, a detail pane shaped by the selected item's state, and a
 * footer with the keys that apply (or a question / message). It reads the engine's state and streams and
 * acts only by enqueueing engine events.
 */
export function DashboardApp({ deps }: { deps: DashboardDeps }) {
  const { engine, streams } = deps;
  const now = deps.now ?? Date.now;
  const { exit } = useApp();
  const { columns, rows: terminalRows } = useTerminalSize();

  // One throttle for engine and stream changes, so together they cost at most one frame per interval.
  // Only a change to the stream on screen counts: agents writing where nobody looks cost no frames.
  const shownStream = useRef<string | null>(null);
  const subscribeChanges = useCallback(
    (listener: () => void) => {
      let seen = '';
      const unsubscribeState = engine.subscribe(listener);
      const unsubscribeStreams = streams.subscribe(() => {
        const sessionID = shownStream.current;
        if (sessionID === null) return;
        const buffer = sessionID === '*' ? null : streams.get(sessionID);
        const key = buffer ? `${sessionID}:${buffer.dropped + buffer.lines.length}:${buffer.ended}` : '';
        if (key !== '' && key === seen) return;
        seen = key;
        listener();
      });
      return () => {
        unsubscribeState();
        unsubscribeStreams();
      };
    },
    [engine, streams],
  );
  const streamVersion = useThrottledSubscription(subscribeChanges, RENDER_INTERVAL_MS);
  const state = engine.getState();

  const [phase, setPhase] = useState<Phase>('starting');
  const [startError, setStartError] = useState<string | null>(null);
  const [focus, setFocus] = useState<'list' | 'detail'>('list');
  const [selectedID, setSelectedID] = useState<string | null>(null);
  const [detailTop, setDetailTop] = useState<number | null>(null);
  const [view, setView] = useState<'item' | 'planner'>('item');
  const [overlay, setOverlay] = useState<Overlay | null>(null);
  const [overlayTop, setOverlayTop] = useState<number | null>(0);
  const [prompt, setPromptState] = useState<Prompt | null>(null);
  // Keys can arrive faster than renders (a paste, tmux send-keys): the prompt and the selection are also
  // kept in refs so the next key sees the previous key's effect before React has re-rendered.
  const promptRef = useRef<Prompt | null>(null);
  const selectedIDRef = useRef<string | null>(null);
  const setPrompt = useCallback((next: Prompt | null) => {
    promptRef.current = next;
    setPromptState(next);
  }, []);
  // The list filter (`/`): its text, and whether keys are being typed into it. Refs for fast keys, as above.
  const [filter, setFilterState] = useState<{ text: string; editing: boolean }>({ text: '', editing: false });
  const filterRef = useRef(filter);
  const setFilter = useCallback((next: { text: string; editing: boolean }) => {
    filterRef.current = next;
    setFilterState(next);
  }, []);
  const [flash, setFlash] = useState<Flash | null>(null);
  const [costUSD, setCostUSD] = useState(0);
  // Scripted runs report made-up costs: left out of the total, and the header says so.
  const [scriptedCostsLeftOut, setScriptedCostsLeftOut] = useState(false);
  const [clock, setClock] = useState(now());
  const listStarts = useRef<Partial<Record<SectionKey, number>>>({});
  const wrapCache = useRef(createWrapCache());
  const lastIndex = useRef(0);
  const interrupts = useRef(0);
  const handleInput = useRef<(input: string, key: Key) => void>(() => {});

  const say = useCallback(
    (text: string, tone: Flash['tone'] = 'info') => setFlash({ text, tone, at: Date.now() }),
    [],
  );

  // Start the engine; quitting waits for stop() and then leaves.
  useEffect(() => {
    deps.start().then(
      () => setPhase((current) => (current === 'starting' ? 'running' : current)),
      (error: unknown) => {
        setStartError(error instanceof Error ? error.message : String(error));
        setPhase('start-failed');
      },
    );
  }, [deps]);
  const quit = useCallback(() => {
    setPhase('stopping');
    setPrompt(null);
    deps.stop().finally(() => exit());
  }, [deps, exit, setPrompt]);
  useEffect(() => deps.onStopRequest?.(quit), [deps, quit]);
  useEffect(() => {
    if (deps.initialMessage) say(deps.initialMessage);
  }, [deps, say]);

  // Feedback on what the user (or the engine) did: refusals, failures, cost.
  useEffect(
    () =>
      engine.onEvent((event: EngineEvent, after) => {
        if ('usage' in event && typeof event.usage?.costUSD === 'number') {
          const cost = event.usage.costUSD;
          if (isScriptedRun(after.agentRuns[event.sessionID])) setScriptedCostsLeftOut(true);
          else setCostUSD((total) => total + cost);
        }
        const feedback = summarizeFeedback(event);
        if (feedback) say(feedback.text, feedback.tone);
      }),
    [engine, say],
  );

  // Durations and the flash timeout need a clock; once a second is enough (4/s while the planner's spinner
  // shows: every tick is a full render, even when nothing on screen depends on the time).
  const spinning = Object.values(state.agentRuns).some(
    (run) => run.role === 'planner' && isAgentRunActive(run),
  );
  useEffect(() => {
    const timer = setInterval(() => setClock(now()), spinning ? 250 : 1000);
    return () => clearInterval(timer);
  }, [spinning, now]);
  useEffect(() => {
    if (flash && clock - flash.at > FLASH_MS) setFlash(null);
  }, [clock, flash]);

  const allSections = useMemo(() => buildWorkItemSections(state), [state]);
  const sections = useMemo(
    () => filterWorkItemSections(allSections, filter.text),
    [allSections, filter.text],
  );
  const flatRows = useMemo(() => sections.flatMap((section) => section.rows), [sections]);

  // The selection follows the item, not the position; when the item leaves the list, the row now at its
  // place is selected.
  let selectedIndex = flatRows.findIndex((row) => row.item.id === selectedID);
  if (selectedIndex < 0 && flatRows.length > 0)
    selectedIndex = Math.min(lastIndex.current, flatRows.length - 1);
  const selected: WorkItemRow | null = selectedIndex >= 0 ? (flatRows[selectedIndex] ?? null) : null;
  useEffect(() => {
    lastIndex.current = Math.max(0, selectedIndex);
    if (selected && selected.item.id !== selectedID) {
      selectedIDRef.current = selected.item.id;
      setSelectedID(selected.item.id);
    }
  });
  const currentIndex = () => {
    const index = flatRows.findIndex((row) => row.item.id === selectedIDRef.current);
    return index >= 0 ? index : selectedIndex;
  };
  const select = (index: number) => {
    const row = flatRows[Math.max(0, Math.min(flatRows.length - 1, index))];
    if (row && row.item.id !== (selectedIDRef.current ?? selectedID)) {
      selectedIDRef.current = row.item.id;
      setSelectedID(row.item.id);
      setDetailTop(null);
    }
  };

  const detailData = useDetailData(deps, view === 'item' ? selected : null);
  const actions = selected && view === 'item' ? buildItemActions(selected, state) : [];

  // Layout: header, body (list │ detail), footer; one row spare so Ink never redraws the whole screen.
  const width = Math.max(MIN_COLUMNS, columns);
  const height = Math.max(MIN_ROWS, terminalRows) - 1;
  const bodyHeight = height - 2;
  const listWidth = Math.max(30, Math.min(72, Math.floor(width * 0.4)));
  const detailWidth = width - listWidth - 1;
  const idWidth = Math.max(2, ...flatRows.map((row) => row.item.id.length + 1));

  const layout = buildListLayout(sections, selected?.item.id ?? null, bodyHeight, listStarts.current);
  for (const section of layout) listStarts.current[section.key] = section.start;

  // The planner view shows the planner's stream ('*': any change), the item view the selected run's.
  shownStream.current =
    view === 'planner'
      ? '*'
      : selected?.latestRun && isAgentRunActive(selected.latestRun)
        ? selected.latestRun.sessionID
        : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: streamVersion and clock invalidate live content
  const detailContent: DetailContent | null = useMemo(() => {
    if (view === 'planner') return buildPlannerContent(state, (id) => streams.get(id), clock);
    if (selected === null || detailData === null) return null;
    const activeSession =
      selected.latestRun &&
      (selected.latestRun.status === 'running' || selected.latestRun.status === 'requested')
        ? selected.latestRun.sessionID
        : null;
    return buildDetailContent({
      row: selected,
      state,
      ...detailData,
      stream: activeSession === null ? null : streams.get(activeSession),
      now: clock,
    });
  }, [view, selected, detailData, state, streams, streamVersion, clock]);

  const overlayContent: DetailContent | null = useMemo(() => {
    if (overlay === null) return null;
    if (overlay.kind === 'help') return buildHelpContent();
    const { title, content } = overlay;
    const lines: DetailLine[] =
      content.status === 'ok'
        ? content.value
        : [{ text: content.status === 'loading' ? 'loading…' : `cannot read ${title}: ${content.message}` }];
    const headLine: DetailLine = { text: `${title} — Esc closes`, bold: true };
    return {
      length: lines.length + 1,
      at: (index: number) => (index === 0 ? headLine : (lines[index - 1] ?? { text: '' })),
      live: false,
    };
  }, [overlay]);

  const paneContent = overlayContent ?? detailContent;
  const paneWidth = overlayContent ? width : detailWidth;
  const paneTop = overlayContent ? overlayTop : detailTop;
  const effectiveTop = paneContent && !paneContent.live && paneTop === null ? 0 : paneTop;
  const viewport = paneContent
    ? buildViewport(paneContent, paneWidth, bodyHeight - 1, effectiveTop, wrapCache.current)
    : null;

  const scrollPane = (delta: number | 'home' | 'end') => {
    if (!paneContent || !viewport) return;
    const setTop = overlayContent ? setOverlayTop : setDetailTop;
    if (delta === 'end')
      return setTop(paneContent.live ? null : Math.max(0, paneContent.length - (bodyHeight - 1)));
    if (delta === 'home') return setTop(0);
    const next = Math.max(0, viewport.top + delta);
    if (delta > 0 && viewport.atEnd) return setTop(paneContent.live ? null : viewport.top);
    setTop(Math.min(next, Math.max(0, paneContent.length - 1)));
  };

  const runAction = (action: ItemAction) => {
    const act = () => {
      if (action.effect.kind === 'file') return openFile(action.effect.title, action.effect.path);
      if (action.effect.kind === 'diff') return openDiff(action.effect.revisionID);
      engine.enqueue(action.effect.event);
      say(action.done);
    };
    if (action.confirm === null) act();
    else setPrompt({ text: action.confirm, onYes: act });
  };
  /** Shows `title` at once ("loading…"), then the lines `load` resolves to (or why it failed). */
  const openFetched = (title: string, load: () => Promise<DetailLine[]>) => {
    setOverlay({ kind: 'fetched', title, content: { status: 'loading' } });
    setOverlayTop(0);
    load().then(
      (lines) => setOverlay({ kind: 'fetched', title, content: { status: 'ok', value: lines } }),
      (error: unknown) =>
        setOverlay({
          kind: 'fetched',
          title,
          content: { status: 'error', message: error instanceof Error ? error.message : String(error) },
        }),
    );
  };
  // A transcript is shown like `flotilla logs`: tool calls with their input, long tool output cut short.
  const openFile = (what: string, path: string) =>
    openFetched(`${what} ${path}`, async () => {
      const text = await deps.readTextFile(path);
      const shown = what === 'transcript' ? shortenTranscript(text, { hint: '; the file has all' }) : text;
      return shown.split('\n').map((line) => ({ text: line }));
    });
  const openDiff = (revisionID: string) => {
    const revision = state.revisions[revisionID];
    const where = revision ? ` (${revision.headRef} at ${revision.headSHA.slice(0, 12)})` : '';
    openFetched(`diff of revision #${revisionID}${where}`, async () =>
      buildDiffLines(await engine.getRevisionFiles(revisionID)),
    );
  };
  const askToQuit = () => {
    const running = engine.schedulerStatus().active;
    if (running === 0) return quit();
    setPrompt({
      text: `Quit? ${running} agent${running === 1 ? '' : 's'} running will be cancelled (their items return to the queue).`,
      onYes: quit,
    });
  };

  // Keys go through a ref to this render's handler: Ink re-subscribes useInput in a passive effect, which
  // can lag a render behind (then a key would act on the previously selected item).
  handleInput.current = (input: string, key: Key) => {
    if (key.ctrl && input === 'c') {
      interrupts.current += 1;
      if (interrupts.current > 1 || phase === 'stopping') return deps.forceExit();
      return quit();
    }
    if (phase === 'stopping') return;
    const openPrompt = promptRef.current;
    if (openPrompt !== null) {
      if (input === 'y' || input === 'Y') {
        setPrompt(null);
        openPrompt.onYes();
      } else if (input === 'n' || input === 'N' || key.escape) {
        setPrompt(null);
        say('cancelled — nothing was done');
      }
      return;
    }
    if (overlay !== null) {
      if (key.escape || input === 'q' || (input === '?' && overlay.kind === 'help')) return setOverlay(null);
      return handleScrollKeys(input, key, scrollPane, bodyHeight - 2);
    }
    const typing = filterRef.current;
    if (typing.editing) return editFilter(typing.text, input, key);
    if (input === '?') {
      setOverlayTop(0);
      return setOverlay({ kind: 'help' });
    }
    if (input === '/') return setFilter({ text: typing.text, editing: true });
    if (key.escape && typing.text !== '') {
      setFilter({ text: '', editing: false });
      return say('filter cleared');
    }
    if (input === 'q') return askToQuit();
    if (phase !== 'running') return;
    if (key.tab || key.return) return setFocus((current) => (current === 'list' ? 'detail' : 'list'));
    if (input === 'f') {
      engine.refresh();
      return say('refreshing: polling the tracker and specs');
    }
    if (input === 'p') {
      setDetailTop(null);
      return setView((current) => (current === 'planner' ? 'item' : 'planner'));
    }
    if (view === 'planner' && (input === 'x' || input === 'l' || input === 'd')) return plannerAction(input);
    if ('drxumvlc'.includes(input) && input !== '') {
      const target = flatRows[currentIndex()] ?? null;
      const action = target
        ? buildItemActions(target, state).find((candidate) => candidate.key === input)
        : undefined;
      if (action) return runAction(action);
      return say(
        target
          ? `${input}: nothing to do for #${target.item.id} (${target.displayStatus}); ? lists the keys`
          : `${input}: no item selected`,
        'error',
      );
    }
    if (focus === 'detail' || view === 'planner')
      return handleScrollKeys(input, key, scrollPane, bodyHeight - 2);
    if (key.upArrow || input === 'k') return select(currentIndex() - 1);
    if (key.downArrow || input === 'j') return select(currentIndex() + 1);
    if (key.pageUp) return select(currentIndex() - (bodyHeight - 4));
    if (key.pageDown) return select(currentIndex() + (bodyHeight - 4));
    if (key.home || input === 'g') return select(0);
    if (key.end || input === 'G') return select(flatRows.length - 1);
  };
  useInput(useCallback((input: string, key: Key) => handleInput.current(input, key), []));

  /** Keys while typing the filter: the list narrows as it is typed; arrows still move the selection. */
  const editFilter = (text: string, input: string, key: Key) => {
    if (key.escape) return setFilter({ text: '', editing: false });
    if (key.return) return setFilter({ text, editing: false });
    if (key.backspace || key.delete) return setFilter({ text: text.slice(0, -1), editing: true });
    if (key.upArrow) return select(currentIndex() - 1);
    if (key.downArrow) return select(currentIndex() + 1);
    if (key.ctrl || key.meta || key.tab || input === '') return;
    // A paste arrives as one input; keep it on one line and free of control characters.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    const typed = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
    setFilter({ text: `${text}${typed}`.slice(0, 200), editing: true });
  };

  const plannerAction = (input: 'x' | 'l' | 'd') => {
    if (input === 'd') return askToPlan();
    const planner = Object.values(state.agentRuns)
      .filter((run) => run.role === 'planner')
      .sort((a, b) => b.requestedAt - a.requestedAt)[0];
    if (!planner) return say('no planner run yet', 'error');
    if (input === 'l') {
      if (planner.logFilePath) return openFile('transcript', planner.logFilePath);
      return say('the planner run has no transcript', 'error');
    }
    if (planner.status !== 'running' && planner.status !== 'requested')
      return say('the planner is not running', 'error');
    setPrompt({
      text: 'Cancel the planner run?',
      onYes: () => {
        engine.enqueue({ type: 'userCancelledRun', sessionID: planner.sessionID });
        say('cancel of the planner requested');
      },
    });
  };

  /** After the planner failed out of its attempts or was cancelled, nothing plans until a spec changes. */
  const askToPlan = () => {
    if (getActivePlannerRun(state) !== null) return say('the planner is already running', 'error');
    if (state.dispatchQueue.some((entry) => entry.command.type === 'requestPlannerRun'))
      return say('a planner run is already queued', 'error');
    const unplanned = getSpecsRequiringPlanning(state).length;
    if (unplanned === 0) return say('every approved spec is planned at its current version', 'error');
    setPrompt({
      text: `Run the planner now (${unplanned} approved spec${unplanned === 1 ? '' : 's'} not planned at the current version)?`,
      onYes: () => {
        engine.enqueue({ type: 'userRequestedPlannerRun' });
        say('planner run requested');
      },
    });
  };

  if (phase === 'starting' || phase === 'start-failed') {
    return (
      <Box flexDirection="column" width={width}>
        <Text bold color="cyan">
          flotilla
        </Text>
        {phase === 'starting' ? (
          <Text>Starting… (first poll of specs, work items and revisions)</Text>
        ) : (
          <Text color="red">Could not start: {startError} — q quits</Text>
        )}
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Header
        summary={buildHeaderSummary(state, engine.schedulerStatus())}
        costUSD={costUSD}
        scriptedCostsLeftOut={scriptedCostsLeftOut}
        previousCostUSD={deps.previousCostUSD ?? null}
        repositoryLabel={deps.repositoryLabel}
        now={clock}
        width={width}
      />
      <Box height={bodyHeight}>
        {overlayContent && viewport ? (
          <DetailPane
            content={overlayContent}
            viewport={viewport}
            scrollTop={overlayTop}
            focused
            width={width}
            height={bodyHeight}
          />
        ) : (
          <>
            <WorkItemList
              layout={layout}
              selectedID={selected?.item.id ?? null}
              focused={focus === 'list'}
              width={listWidth}
              idWidth={idWidth}
            />
            <Box width={1} height={bodyHeight} flexDirection="column">
              <Text dimColor>{'│\n'.repeat(bodyHeight).trimEnd()}</Text>
            </Box>
            {detailContent && viewport ? (
              <DetailPane
                content={detailContent}
                viewport={viewport}
                scrollTop={detailTop}
                focused={focus === 'detail' || view === 'planner'}
                width={detailWidth}
                height={bodyHeight}
              />
            ) : (
              <Box width={detailWidth}>
                <Text dimColor>
                  {flatRows.length > 0
                    ? 'No work item selected'
                    : filter.text.trim() !== ''
                      ? `No open work item matches "${filter.text.trim()}". Esc clears the filter.`
                      : Object.keys(state.workItems).length > 0
                        ? 'Every work item is closed. Approve another spec (status: approved) to plan more.'
                        : 'No work items yet. Approve a spec (status: approved) and the planner creates them.'}
                </Text>
              </Box>
            )}
          </>
        )}
      </Box>
      <Footer
        phase={phase}
        prompt={prompt}
        flash={flash}
        filter={filter}
        matches={{
          shown: flatRows.length,
          total: allSections.reduce((sum, section) => sum + section.rows.length, 0),
        }}
        actions={actions}
        agents={engine.schedulerStatus().active}
        width={width}
      />
    </Box>
  );
}

function Footer(props: {
  phase: Phase;
  prompt: Prompt | null;
  flash: Flash | null;
  filter: { text: string; editing: boolean };
  matches: { shown: number; total: number };
  actions: ItemAction[];
  agents: number;
  width: number;
}) {
  const { phase, prompt, flash, filter, matches, actions, agents, width } = props;
  const counted = `${matches.shown} of ${matches.total}`;
  let content: React.ReactNode;
  if (phase === 'stopping') {
    content = (
      <Text color="yellow">
        Shutting down… waiting for {agents} agent{agents === 1 ? '' : 's'} (Ctrl-C again forces)
      </Text>
    );
  } else if (prompt) {
    content = (
      <Text color="yellow" bold>
        {prompt.text} (y/n)
      </Text>
    );
  } else if (filter.editing) {
    content = (
      <Text>
        <Text color="cyan" bold>
          /{sanitizeTerminalText(filter.text)}▏
        </Text>
        <Text dimColor> {counted} · Enter keeps · Esc clears</Text>
      </Text>
    );
  } else if (flash) {
    content = <Text color={flash.tone === 'error' ? 'red' : 'green'}>{flash.text}</Text>;
  } else {
    const hints = actions.map((action) => `${action.key} ${action.label}`);
    const keys = [...hints, '? keys', 'q quit', 'p planner', 'f refresh', '/ filter'].join(' · ');
    content =
      filter.text.trim() === '' ? (
        <Text dimColor>{keys}</Text>
      ) : (
        <Text>
          <Text color="cyan">
            /{sanitizeTerminalText(filter.text.trim())} ({counted}, Esc clears)
          </Text>
          <Text dimColor> · {keys}</Text>
        </Text>
      );
  }
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate">{content}</Text>
    </Box>
  );
}

function handleScrollKeys(
  input: string,
  key: {
    upArrow: boolean;
    downArrow: boolean;
    pageUp: boolean;
    pageDown: boolean;
    home: boolean;
    end: boolean;
  },
  scroll: (delta: number | 'home' | 'end') => void,
  page: number,
): void {
  if (key.upArrow || input === 'k') scroll(-1);
  else if (key.downArrow || input === 'j') scroll(1);
  else if (key.pageUp) scroll(-page);
  else if (key.pageDown || input === ' ') scroll(page);
  else if (key.home || input === 'g') scroll('home');
  else if (key.end || input === 'G') scroll('end');
}
