import { describe, expect, it } from 'vitest';
import { mapWebhookDelivery, WEBHOOK_EVENTS } from './map-webhook-delivery.ts';

const repository = { owner: 'acme', repo: 'widgets' };
const inRepo = { repository: { full_name: 'acme/widgets' } };

describe('mapWebhookDelivery (docs/github-webhooks.md §Events)', () => {
  it.each([
    [
      'issue_comment',
      { action: 'created', issue: { number: 9, pull_request: { url: 'x' } } },
      ['revisions'],
      'pull request #9',
    ],
    [
      'pull_request',
      { action: 'closed', pull_request: { number: 9 } },
      ['revisions', 'workItems'],
      'pull request #9',
    ],
    [
      'pull_request_review',
      { action: 'submitted', pull_request: { number: 9 } },
      ['revisions'],
      'pull request #9',
    ],
    [
      'pull_request_review_comment',
      { action: 'created', pull_request: { number: 9 } },
      ['revisions'],
      'pull request #9',
    ],
    [
      'check_run',
      { action: 'completed', check_run: { head_sha: 'a'.repeat(40) } },
      ['revisions'],
      'head aaaaaaaaaaaa',
    ],
    [
      'check_suite',
      { action: 'completed', check_suite: { head_sha: 'b'.repeat(40) } },
      ['revisions'],
      'head bbbbbbbbbbbb',
    ],
    ['status', { state: 'failure', sha: 'c'.repeat(40) }, ['revisions'], 'head cccccccccccc'],
  ])('%s → poll %j', (event, payload, changes, target) => {
    expect(mapWebhookDelivery(event, { ...inRepo, ...payload }, repository)).toEqual({
      kind: 'poll',
      changes,
      target,
    });
  });

  it.each([
    ['issues', { action: 'labeled', issue: { number: 7 } }],
    ['issue_comment', { action: 'created', issue: { number: 7 } }],
  ])('%s → poll just the work item it names %j', (event, payload) => {
    expect(mapWebhookDelivery(event, { ...inRepo, ...payload }, repository)).toEqual({
      kind: 'poll',
      changes: ['workItems'],
      target: 'issue #7',
      workItemID: '7',
    });
  });

  it('polls the whole list when an issue event names no whole number', () => {
    for (const issue of [{}, { number: 0 }, { number: 1.5 }, { number: '7' }]) {
      expect(mapWebhookDelivery('issues', { ...inRepo, action: 'edited', issue }, repository)).toEqual({
        kind: 'poll',
        changes: ['workItems'],
        target: 'issue #?',
      });
    }
  });

  it('maps every subscribed event', () => {
    for (const event of WEBHOOK_EVENTS) {
      expect(mapWebhookDelivery(event, inRepo, repository).kind).toBe('poll');
    }
  });

  it('answers ping, ignores other events, other repositories and non-objects', () => {
    expect(mapWebhookDelivery('ping', { zen: 'Design for failure.', hook_id: 1 }, repository)).toEqual({
      kind: 'ping',
    });
    expect(mapWebhookDelivery('push', inRepo, repository)).toMatchObject({ kind: 'ignore' });
    expect(
      mapWebhookDelivery(
        'issues',
        { repository: { full_name: 'acme/other' }, issue: { number: 1 } },
        repository,
      ),
    ).toEqual({ kind: 'ignore', reason: 'the delivery is for acme/other, not acme/widgets' });
    expect(mapWebhookDelivery('issues', { issue: { number: 1 } }, repository)).toMatchObject({
      kind: 'ignore',
    });
    expect(mapWebhookDelivery('issues', [1], repository)).toMatchObject({ kind: 'ignore' });
    // GitHub keeps the owner's and repository's case; logins are case-insensitive.
    expect(
      mapWebhookDelivery(
        'issues',
        { repository: { full_name: 'Acme/Widgets' }, issue: { number: 1 } },
        repository,
      ),
    ).toMatchObject({ kind: 'poll' });
  });
});
