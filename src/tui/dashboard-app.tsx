import { Box, type Key, Text, useApp, useInput } from 'ink';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { isAgentRunActive } from '../domain/index.ts';
import { messageOf } from '../shared/message-of.ts';
import { buildItemActions } from './actions/build-item-actions.ts';
import { DetailPane } from './components/detail-pane.tsx';
import { EmptyDetail } from './components/empty-detail.tsx';
import { Footer } from './components/footer.tsx';
import { Header } from './components/header.tsx';
import { StartingScreen } from './components/starting-screen.tsx';
import { WorkItemList } from './components/work-item-list.tsx';
import type { DashboardDeps } from './dashboard-deps.ts';
import { useChangeVersion } from './hooks/use-change-version.ts';
import { useClock } from './hooks/use-clock.ts';
import { useDashboardInput } from './hooks/use-dashboard-input.ts';
import { useDetailData } from './hooks/use-detail-data.ts';
import { useEngineFeedback } from './hooks/use-engine-feedback.ts';
import { useFlash } from './hooks/use-flash.ts';
import { useShownSelection } from './hooks/use-shown-selection.ts';
import { useTerminalSize } from './hooks/use-terminal-size.ts';
import type { DetailContent } from './view-model/build-detail-content.ts';
import { buildDetailContent } from './view-model/build-detail-content.ts';
import { buildHeaderSummary } from './view-model/build-header-summary.ts';
import { buildListLayout } from './view-model/build-list-layout.ts';
import { buildOverlayContent } from './view-model/build-overlay-content.ts';
import { buildPlannerContent } from './view-model/build-planner-content.ts';
import { buildQuotaSummary } from './view-model/build-quota-summary.ts';
import { buildViewport, createWrapCache } from './view-model/build-viewport.ts';
import { buildWorkItemSections, type SectionKey } from './view-model/build-work-item-sections.ts';
import { filterWorkItemSections } from './view-model/filter-work-item-sections.ts';

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 20;

/**
 * The dashboard: header, sectioned work item list, a detail pane shaped by the selected item's state, and a
 * footer with the keys that apply (or a question / message). It reads the engine's state and streams and
 * acts only by enqueueing engine events. What keys do is decided by the pure reducers in `input/`; this
 * component draws their state and carries out their effects.
 */
export function DashboardApp({ deps }: { deps: DashboardDeps }) {
  const { engine, streams } = deps;
  const now = deps.now ?? Date.now;
  const { exit } = useApp();
  const { columns, rows: terminalRows } = useTerminalSize();
  const { version: changeVersion, shownStream } = useChangeVersion(engine, streams);
  const state = engine.getState();

  // Durations and the flash timeout need a clock; once a second is enough (4/s while the planner's spinner
  // shows: every tick is a full render, even when nothing on screen depends on the time).
  const spinning = Object.values(state.agentRuns).some(
    (run) => run.role === 'planner' && isAgentRunActive(run),
  );
  const clock = useClock(now, spinning ? 250 : 1000);
  const { flash, say } = useFlash(clock);
  const { costUSD, scriptedCostsLeftOut } = useEngineFeedback(engine, say);
  const { state: input, pressKey, signal } = useDashboardInput(deps, exit, say);
  const { phase, focus, view, overlay, filter } = input;

  // Start the engine; quitting (a key, or a stop request from outside) waits for stop() and then leaves.
  useEffect(() => {
    deps.start().then(
      () => signal({ type: 'start-finished' }),
      (error: unknown) => signal({ type: 'start-failed', message: messageOf(error) }),
    );
  }, [deps, signal]);
  useEffect(() => deps.onStopRequest?.(() => signal({ type: 'stop-requested' })), [deps, signal]);
  useEffect(() => {
    if (deps.initialMessage) say(deps.initialMessage);
  }, [deps, say]);

  const allSections = useMemo(() => buildWorkItemSections(state), [state]);
  const sections = useMemo(
    () => filterWorkItemSections(allSections, filter.text),
    [allSections, filter.text],
  );
  const flatRows = useMemo(() => sections.flatMap((section) => section.rows), [sections]);
  const { index: selectedIndex, row: selected } = useShownSelection(flatRows, input.selectedID, (id) =>
    signal({ type: 'selection-shown', workItemID: id }),
  );

  const detailData = useDetailData(deps, view === 'item' ? selected : null);
  const actions = selected && view === 'item' ? buildItemActions(selected, state) : [];

  // Layout: header, body (list │ detail), footer; one row spare so Ink never redraws the whole screen.
  const width = Math.max(MIN_COLUMNS, columns);
  const height = Math.max(MIN_ROWS, terminalRows) - 1;
  const bodyHeight = height - 2;
  const listWidth = Math.max(30, Math.min(72, Math.floor(width * 0.4)));
  const detailWidth = width - listWidth - 1;
  const idWidth = Math.max(2, ...flatRows.map((row) => row.item.id.length + 1));

  const listStarts = useRef<Partial<Record<SectionKey, number>>>({});
  const layout = buildListLayout(sections, selected?.item.id ?? null, bodyHeight, listStarts.current);
  for (const section of layout) listStarts.current[section.key] = section.start;

  // The planner view shows the planner's stream ('*': any change), the item view the selected run's.
  shownStream.current =
    view === 'planner'
      ? '*'
      : selected?.latestRun && isAgentRunActive(selected.latestRun)
        ? selected.latestRun.sessionID
        : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: changeVersion and clock invalidate live content
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
  }, [view, selected, detailData, state, streams, changeVersion, clock]);
  const overlayContent = useMemo(() => (overlay === null ? null : buildOverlayContent(overlay)), [overlay]);

  const wrapCache = useRef(createWrapCache());
  const paneContent = overlayContent ?? detailContent;
  const paneWidth = overlayContent ? width : detailWidth;
  const paneTop = overlayContent ? input.overlayTop : input.detailTop;
  const effectiveTop = paneContent && !paneContent.live && paneTop === null ? 0 : paneTop;
  const viewport = paneContent
    ? buildViewport(paneContent, paneWidth, bodyHeight - 1, effectiveTop, wrapCache.current)
    : null;

  // Keys go through a ref to this render's handler: Ink re-subscribes useInput in a passive effect, which
  // can lag a render behind (then a key would act on the previously selected item).
  const handleInput = useRef<(text: string, key: Key) => void>(() => {});
  handleInput.current = (text: string, key: Key) =>
    pressKey(
      { input: text, key },
      {
        engineState: state,
        rows: flatRows,
        shownIndex: selectedIndex,
        bodyHeight,
        pane:
          paneContent && viewport
            ? { length: paneContent.length, live: paneContent.live, top: viewport.top, atEnd: viewport.atEnd }
            : null,
        activeAgents: engine.schedulerStatus().active,
      },
    );
  useInput(useCallback((text: string, key: Key) => handleInput.current(text, key), []));

  if (phase === 'starting' || phase === 'start-failed') {
    return <StartingScreen error={phase === 'start-failed' ? input.startError : null} width={width} />;
  }

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Header
        summary={buildHeaderSummary(state, engine.schedulerStatus(), clock)}
        costUSD={costUSD}
        scriptedCostsLeftOut={scriptedCostsLeftOut}
        previousCostUSD={deps.previousCostUSD ?? null}
        repositoryLabel={deps.repositoryLabel}
        quota={buildQuotaSummary(deps.quota?.() ?? null, clock)}
        now={clock}
        width={width}
      />
      <Box height={bodyHeight}>
        {overlayContent && viewport ? (
          <DetailPane
            content={overlayContent}
            viewport={viewport}
            scrollTop={input.overlayTop}
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
                scrollTop={input.detailTop}
                focused={focus === 'detail' || view === 'planner'}
                width={detailWidth}
                height={bodyHeight}
              />
            ) : (
              <EmptyDetail
                rowsShown={flatRows.length}
                filterText={filter.text}
                workItems={Object.keys(state.workItems).length}
                width={detailWidth}
              />
            )}
          </>
        )}
      </Box>
      <Footer
        phase={phase}
        prompt={input.prompt}
        answer={input.answer}
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
