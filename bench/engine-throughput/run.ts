/**
 * Engine throughput: 10,000 work-item events plus 1,000 complete agent lifecycles (implement → revision →
 * review → approve) through the real loop, with the in-memory provider and the scripted adapter.
 * Prints events/s, p50/p99 processing time per event and peak RSS. Run: npm run bench:engine
 */
import { createEngine } from '../../src/engine/create-engine.ts';
import {
  buildAddFilePatch,
  buildImplementorResult,
  buildReviewerResult,
} from '../../src/runtimes/scripted/build-scripted-results.ts';
import { buildResultRun } from '../../src/runtimes/scripted/build-scripted-runs.ts';
import { createScriptedAdapter } from '../../src/runtimes/scripted/create-scripted-adapter.ts';
import { createInMemoryProvider } from '../../test/support/in-memory-provider/create-in-memory-provider.ts';

const WORK_ITEM_EVENTS = Number(process.env.WORK_ITEM_EVENTS ?? 10_000);
const LIFECYCLES = Number(process.env.LIFECYCLES ?? 1_000);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

let peakRSS = process.memoryUsage().rss;
const rssTimer = setInterval(() => {
  peakRSS = Math.max(peakRSS, process.memoryUsage().rss);
}, 20);

async function main(): Promise<void> {
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const adapter = createScriptedAdapter({
    implementor: (params) =>
      buildResultRun(
        buildImplementorResult('completed', {
          patch: buildAddFilePatch(
            `src/item-${params.role === 'implementor' ? params.workItemID : 'x'}.ts`,
            'x\n',
          ),
        }),
        { output: ['working', 'done'] },
      ),
    reviewer: () => buildResultRun(buildReviewerResult('approve')),
  });
  const perEvent: number[] = [];
  let events = 0;
  const engine = createEngine({
    provider,
    createRuntimeAdapters: () => ({ planner: adapter, implementor: adapter, reviewer: adapter }),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    scheduler: { maxConcurrentAgents: 20 },
    instrumentation: {
      batchProcessed(batch, ms) {
        events += batch.length;
        for (let i = 0; i < batch.length; i += 1) perEvent.push(ms / batch.length);
      },
    },
  });
  await engine.start();

  // Phase 1: 10,000 work-item observations on 500 parked items (state update + all handlers per event).
  const parked = Array.from({ length: 500 }, (_, i) =>
    provider.control.addWorkItem({ title: `Parked ${i}`, status: 'blocked' }),
  );
  await engine.pollNow();
  const phase1Start = performance.now();
  const eventsBefore1 = events;
  for (let i = 0; i < WORK_ITEM_EVENTS; i += 1) {
    const item = parked[i % parked.length]!;
    const snapshot = { ...item, title: `${item.title} (edit ${i})` };
    engine.enqueue({
      type: 'workItemChanged',
      workItemID: item.id,
      workItem: snapshot,
      oldStatus: 'blocked',
      newStatus: 'blocked',
    });
  }
  await engine.whenQuiescent();
  const phase1Ms = performance.now() - phase1Start;
  const phase1Events = events - eventsBefore1;

  // Phase 2: 1,000 items, each implemented, turned into a revision, reviewed and approved.
  for (let i = 0; i < LIFECYCLES; i += 1)
    provider.control.addWorkItem({ title: `Task ${i}`, status: 'pending' });
  const phase2Start = performance.now();
  const eventsBefore2 = events;
  await engine.pollNow();
  await engine.whenQuiescent();
  const phase2Ms = performance.now() - phase2Start;
  const phase2Events = events - eventsBefore2;
  const approved = Object.values(engine.getState().workItems).filter(
    (item) => item.status === 'approved',
  ).length;
  await engine.stop();
  clearInterval(rssTimer);
  peakRSS = Math.max(peakRSS, process.memoryUsage().rss);

  const sorted = [...perEvent].sort((a, b) => a - b);
  const fmt = (n: number) => n.toFixed(3);
  console.log('engine-throughput');
  console.log(
    `  phase 1: ${phase1Events} work-item events in ${phase1Ms.toFixed(0)} ms → ${Math.round((phase1Events / phase1Ms) * 1000)} events/s`,
  );
  console.log(
    `  phase 2: ${LIFECYCLES} lifecycles (${approved} approved), ${phase2Events} events in ${phase2Ms.toFixed(0)} ms → ${Math.round((phase2Events / phase2Ms) * 1000)} events/s, ${fmt(phase2Ms / LIFECYCLES)} ms/lifecycle`,
  );
  console.log(
    `  per event: p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms (${sorted.length} events)`,
  );
  console.log(`  peak RSS: ${(peakRSS / 1024 / 1024).toFixed(0)} MiB`);
  if (approved !== LIFECYCLES) {
    console.error(`expected ${LIFECYCLES} approved items, got ${approved}`);
    process.exitCode = 1;
  }
}

await main();
