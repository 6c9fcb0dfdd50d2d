import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownFields } from '../../../test/support/github/compare-shapes.ts';
import { createFakeGitHub, type FakeGitHub } from './create-fake-github.ts';

/**
 * The fake's answers against @octokit/fixtures: bodies and headers recorded from api.github.com. Every field
 * the fake sends must exist in the recording with the same JSON type, the recorded issue, user, label and
 * ref objects must be complete in the fake (but for the fields listed as left out), and the headers Flotilla
 * relies on (ETag, Link, x-ratelimit-*) must be there in the same form. Endpoints the fixtures do not
 * record (comments, trees, blobs, 304s, rate-limit errors) follow GitHub's REST documentation instead.
 */

interface Fixture {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string | number>;
}

const fixturesRoot = dirname(createRequire(import.meta.url).resolve('@octokit/fixtures/package.json'));
function fixture(scenario: string, index: number): Fixture {
  const path = join(fixturesRoot, 'scenarios/api.github.com', scenario, 'normalized-fixture.json');
  const recorded = JSON.parse(readFileSync(path, 'utf8')) as Fixture[];
  const found = recorded[index];
  if (found === undefined) throw new Error(`no fixture ${index} in ${scenario}`);
  return found;
}

function topLevelKeys(value: unknown): string[] {
  return Object.keys(value as object).sort();
}

const TOKEN = 'ghp_shapes';
let github: FakeGitHub;
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${github.apiUrl}${path}`, {
    method,
    headers: { authorization: `token ${TOKEN}`, ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
};

beforeAll(async () => {
  github = await createFakeGitHub({ token: TOKEN });
});
afterAll(() => github.close());

describe('fake GitHub: shapes match @octokit/fixtures recordings', () => {
  it('issues: a created issue, a listing page with Link and rate-limit headers', async () => {
    const created = await call('POST', `/repos/${github.owner}/${github.repo}/issues`, {
      title: 'Recorded',
      body: 'text',
      labels: ['bug'],
    });
    const recordedCreate = fixture('add-labels-to-issue', 0);
    expect(created.status).toBe(recordedCreate.status);
    const labelsAdded = fixture('add-labels-to-issue', 1);
    // The recorded issue was created without labels; its labels are recorded by the next call.
    const recordedIssue = { ...(recordedCreate.response as object), labels: labelsAdded.response };
    // Issue dependencies (GA 2025) postdate the recordings: the summary's fields are the REST schema's
    // `issue-dependencies-summary` (@octokit/openapi-types), checked here, and left out of the comparison.
    const { issue_dependencies_summary: summary, ...createdIssue } = created.body;
    expect(Object.keys(summary).sort()).toEqual([
      'blocked_by',
      'blocking',
      'total_blocked_by',
      'total_blocking',
    ]);
    expect(unknownFields(createdIssue, recordedIssue)).toEqual([]);
    // GitHub sends `reactions` too; Flotilla does not read it.
    expect(topLevelKeys(createdIssue)).toEqual(
      topLevelKeys(recordedCreate.response).filter((key) => key !== 'reactions'),
    );
    expect(topLevelKeys(created.body.labels[0])).toEqual(topLevelKeys((labelsAdded.response as object[])[0]));
    expect(topLevelKeys(created.body.user)).toEqual(
      topLevelKeys((recordedCreate.response as { user: object }).user),
    );

    for (let index = 0; index < 6; index++) github.human.createIssue({ title: `more ${index}` });
    const page1 = await call('GET', `/repos/${github.owner}/${github.repo}/issues?per_page=3`);
    const recordedPage1 = fixture('paginate-issues', 0);
    const page1Issues = page1.body.map(
      ({ issue_dependencies_summary: _, ...issue }: Record<string, unknown>) => issue,
    );
    expect(unknownFields(page1Issues, recordedPage1.response)).toEqual([]);
    expect(topLevelKeys(page1Issues[0])).toEqual(
      topLevelKeys((recordedPage1.response as object[])[0]).filter((key) => key !== 'reactions'),
    );
    for (const header of [
      'etag',
      'link',
      'content-type',
      'cache-control',
      'x-github-media-type',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-used',
      'x-ratelimit-resource',
    ]) {
      expect(recordedPage1.headers[header], header).toBeDefined();
      expect(page1.headers.get(header), header).not.toBeNull();
    }
    expect(page1.headers.get('content-type')).toBe(recordedPage1.headers['content-type']);
    expect(page1.headers.get('x-ratelimit-resource')).toBe(recordedPage1.headers['x-ratelimit-resource']);
    const rels = (link: string) =>
      [...link.matchAll(/<[^>]+[?&]page=(\d+)[^>]*>; rel="(\w+)"/g)].map((m) => m[2]);
    expect(rels(page1.headers.get('link') ?? '')).toEqual(rels(String(recordedPage1.headers.link)));
    const lastPage = await call('GET', `/repos/${github.owner}/${github.repo}/issues?per_page=3&page=3`);
    expect(rels(lastPage.headers.get('link') ?? '')).toEqual(
      rels(String(fixture('paginate-issues', 4).headers.link)),
    );
  });

  it('labels, git refs, the repository and a validation error', async () => {
    const labels = await call('GET', `/repos/${github.owner}/${github.repo}/labels`);
    expect(labels.body.length).toBeGreaterThan(0);
    expect(unknownFields(labels.body, fixture('labels', 0).response)).toEqual([]);

    const ref = await call('GET', `/repos/${github.owner}/${github.repo}/git/ref/heads/main`);
    const recordedRefs = fixture('git-refs', 0).response as object[];
    expect(unknownFields(ref.body, recordedRefs[0])).toEqual([]);
    expect(topLevelKeys(ref.body)).toEqual(topLevelKeys(recordedRefs[0]));

    const repository = await call('GET', `/repos/${github.owner}/${github.repo}`);
    expect(unknownFields(repository.body, fixture('get-repository', 0).response)).toEqual([]);

    const invalid = await call('POST', `/repos/${github.owner}/${github.repo}/issues`, { body: 'no title' });
    const recordedError = fixture('errors', 0);
    expect(invalid.status).toBe(recordedError.status);
    // GitHub has sent `status` in error bodies since 2023; the 2022 recording predates it.
    const { status, ...errorBody } = invalid.body;
    expect(status).toBe('422');
    expect(unknownFields(errorBody, recordedError.response)).toEqual([]);
  });

  it('conditional requests: a matching If-None-Match is a 304 that costs nothing (GitHub docs)', async () => {
    const path = `/repos/${github.owner}/${github.repo}/issues`;
    const first = await call('GET', path);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[0-9a-f]+"$/);
    const again = await call('GET', path, undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(first.headers.get('x-ratelimit-remaining'));
  });
});
