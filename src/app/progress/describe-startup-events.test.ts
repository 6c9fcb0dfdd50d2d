import { describe, expect, it } from 'vitest';
import { buildRevision, buildTestState, buildWorkItem } from '../../../test/support/shared/builders/index.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { buildSeenSnapshot } from './build-seen-snapshot.ts';
import { describeStartupEvents } from './describe-startup-events.ts';

const item = buildWorkItem({ id: '1', title: 'Add greet', status: 'review' });
const revision = buildRevision({ id: '2', workItemID: '1' });
const state = buildTestState({ workItems: [item], revisions: [revision] });
const events: EngineEvent[] = [
  { type: 'workItemChanged', workItemID: '1', workItem: item, oldStatus: null, newStatus: 'review' },
  {
    type: 'revisionChanged',
    revisionID: '2',
    workItemID: '1',
    revision,
    oldPipelineStatus: null,
    newPipelineStatus: 'success',
  },
];
const sync = events.map((event) => ({ event, state }));

describe('describeStartupEvents', () => {
  it('describes everything as new when there was no last run', () => {
    expect(describeStartupEvents(sync, null)).toEqual([
      'work item #1 "Add greet" created (review)',
      'revision r2 created on flotilla/1 for #1',
    ]);
  });

  it('counts what is as the last run left it', () => {
    expect(describeStartupEvents(sync, buildSeenSnapshot(state))).toEqual([
      'unchanged since the last run: 1 work item, 1 revision',
    ]);
  });

  it('names a revision whose checks changed since the last run, and an item it never saw', () => {
    const before = buildSeenSnapshot(
      buildTestState({ revisions: [buildRevision({ id: '2', workItemID: '1', pipeline: null })] }),
    );
    expect(describeStartupEvents(sync, before)).toEqual([
      'work item #1 "Add greet" created (review)',
      'checks for revision r2 of #1: passed since the last run',
    ]);
  });
});
