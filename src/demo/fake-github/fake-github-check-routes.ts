import { githubTimestamp } from './build-fake-github-resources.ts';
import { type FakeGitHubStore, type FakeRoute, HttpError, ok, route } from './create-fake-github-store.ts';

/** The failing CI's check run output (`output.text`) and annotations, as GitHub Actions reports them. */
export const FAILING_CHECK_LOG =
  'Run npm test\n> vitest run\n FAIL  src/a.test.ts > adds\nAssertionError: expected 1, got 2\n Tests  1 failed | 4 passed';
export const FAILING_CHECK_ANNOTATIONS = [
  {
    path: 'src/a.test.ts',
    start_line: 3,
    end_line: 3,
    annotation_level: 'failure',
    title: 'src/a.test.ts > adds',
    message: 'AssertionError: expected 1, got 2',
  },
];

/**
 * The fake CI's one `test` check run on a commit: queued until settled (`settleChecks()`, or at once with
 * `ciSettlesAtOnce`: the run has finished by the first read of the head), then passing or failing.
 */
export function checkRunsFor(store: FakeGitHubStore, sha: string) {
  const { owner, repo, ci, settledChecks } = store;
  if (ci === 'none') return [];
  if (store.settleAtOnce) settledChecks.add(sha);
  const done = settledChecks.has(sha);
  if (!store.ciHeads.includes(sha)) store.ciHeads.push(sha);
  // `failingHeads`: the first heads CI runs on fail whatever `ci` says (red CI, then a green rework).
  const passing = ci === 'passing' && store.ciHeads.indexOf(sha) >= store.failingHeads;
  const failing = !passing;
  const id = Number.parseInt(sha.slice(0, 8), 16);
  return [
    {
      id,
      node_id: Buffer.from(`0:CheckRun${id}`).toString('base64'),
      head_sha: sha,
      name: 'test',
      status: done ? 'completed' : 'queued',
      conclusion: done ? (passing ? 'success' : 'failure') : null,
      started_at: null,
      completed_at: done ? githubTimestamp(Date.now()) : null,
      html_url: `https://github.com/${owner}/${repo}/runs/${id}`,
      details_url: `https://github.com/${owner}/${repo}/actions/runs/${id}`,
      output: {
        title: done ? (passing ? 'All tests passed' : '1 test failed') : null,
        summary: done ? (passing ? 'ok' : 'expected 1, got 2') : null,
        text: done && failing ? FAILING_CHECK_LOG : null,
        annotations_count: done && failing ? FAILING_CHECK_ANNOTATIONS.length : 0,
      },
      app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
    },
  ];
}

/**
 * Check runs, their annotations and commit statuses: the fake CI. Writing check runs is for GitHub Apps only
 * ("OAuth apps and authenticated users can view check runs … but are not able to create them"): a token
 * of a user gets 403 "You must authenticate via a GitHub App.".
 */
export function buildFakeCheckRoutes(store: FakeGitHubStore): FakeRoute[] {
  const { owner, repo, repoPath, git, ci, settledChecks, paginate } = store;
  const requireApp = (viaApp: boolean) => {
    if (!viaApp) {
      throw new HttpError(403, 'You must authenticate via a GitHub App.', {
        documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
      });
    }
  };
  return [
    route('GET', `${repoPath}/commits/([^/]+)/check-runs`, async ([ref = '']) => {
      const sha = await git.resolveCommit(ref);
      if (sha === null) throw new HttpError(422, `No commit found for SHA: ${ref}`);
      const runs = checkRunsFor(store, sha);
      return ok({ total_count: runs.length, check_runs: runs });
    }),
    route('POST', `${repoPath}/check-runs`, async (_params, _query, body, caller) => {
      requireApp(caller.viaApp);
      // An App may write check runs; the fake's CI is its own, so it only takes note of the request.
      if (typeof body.name !== 'string' || typeof body.head_sha !== 'string') {
        throw new HttpError(422, 'Validation Failed', { errors: ['name and head_sha are required'] });
      }
      return ok({ id: store.nextID(), name: body.name, head_sha: body.head_sha, status: 'queued' }, 201);
    }),
    route('PATCH', `${repoPath}/check-runs/(\\d+)`, async (_params, _query, _body, caller) => {
      requireApp(caller.viaApp);
      throw new HttpError(404, 'Not Found');
    }),
    route('GET', `${repoPath}/check-runs/(\\d+)/annotations`, async ([id], query) => {
      const settled = [...settledChecks].find((sha) => Number.parseInt(sha.slice(0, 8), 16) === Number(id));
      if (settled === undefined) throw new HttpError(404, 'Not Found');
      const failed = ci === 'failing' || store.ciHeads.indexOf(settled) < store.failingHeads;
      const annotations = failed ? FAILING_CHECK_ANNOTATIONS : [];
      return paginate(annotations, query, `${repoPath}/check-runs/${id}/annotations`, (annotation) => ({
        ...annotation,
        blob_href: `https://github.com/${owner}/${repo}/blob/${settled}/${annotation.path}`,
        start_column: null,
        end_column: null,
        raw_details: null,
      }));
    }),
    route('GET', `${repoPath}/commits/([^/]+)/status`, async ([ref = '']) => {
      const sha = await git.resolveCommit(ref);
      if (sha === null) throw new HttpError(422, `No commit found for SHA: ${ref}`);
      // The fake's CI reports check runs only (as GitHub Actions does); no commit statuses.
      return ok({ state: 'pending', statuses: [], sha, total_count: 0 });
    }),
  ];
}
