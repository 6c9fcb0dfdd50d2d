import { tmpdir } from 'node:os';
import { createFakeGitHub } from '../../src/demo/fake-github/create-fake-github.ts';
/**
 * GitHub quota benchmark (issue #12): requests and primary-quota points per poll of the work-item, spec and
 * revision pollers, counted by the fake GitHub on 127.0.0.1, for N = 0, 10 and 50 open work items with one
 * open pull request each (and 5 specs): the first poll (cold caches), an idle poll (nothing changed), and a
 * work-item poll after one item's labels changed. Per hour at the default intervals (work items and
 * revisions 30 s, specs 60 s), against decree's published pattern (2 list calls per work-item poll and
 * 1 + 3N per revision poll, none conditional). The revision poll is one GraphQL query per 50 open pull
 * requests (GraphQL has its own budget and no conditional requests). Run: npm run bench:github-quota
 */
import { silentLogger } from '../../src/logging/logger.ts';
import { createGitHubProvider } from '../../src/providers/github/create-github-provider.ts';

const TOKEN = 'ghp_bench';
const SPECS = 5;
const POLLS_PER_HOUR_30S = 3600 / 30; // work items and revisions
const SPEC_POLLS_PER_HOUR = 3600 / 60;

interface Cost {
  requests: number;
  /** REST (`core`) points. */
  points: number;
  /** GraphQL points: a separate budget of 5000 an hour. */
  graphql: number;
  ms: number;
}

async function measure(openItems: number) {
  const github = await createFakeGitHub({ token: TOKEN });
  try {
    const files: Record<string, string> = {};
    for (let index = 0; index < SPECS; index++) {
      files[`docs/specs/spec-${index}.md`] = `---\nstatus: approved\n---\n\n# Spec ${index}\n`;
    }
    await github.human.commitFiles(files);
    for (let index = 0; index < openItems; index++) {
      github.human.createIssue({ title: `item ${index}`, labels: ['task:implement', 'status:pending'] });
      await github.human.openPullRequest({
        branch: `flotilla/${index}`,
        files: { [`src/f${index}.ts`]: 'x\n' },
        title: `PR ${index}`,
      });
    }
    const provider = createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      apiUrl: github.apiUrl,
      specsDir: 'docs/specs',
      // No revision is created here, so the patch mirror under it is never made.
      scratchDir: tmpdir(),
      defaultBranch: 'main',
      env: { GITHUB_TOKEN: TOKEN },
      logger: silentLogger,
    });
    const cost = async (poll: () => Promise<unknown>): Promise<Cost> => {
      const from = github.requests.length;
      const started = performance.now();
      await poll();
      const ms = performance.now() - started;
      const requests = github.requests.slice(from);
      const counted = requests.filter((request) => request.counted);
      return {
        requests: requests.length,
        points: counted.filter((request) => request.resource === 'core').length,
        graphql: counted.filter((request) => request.resource === 'graphql').length,
        ms,
      };
    };
    const workItems = () => provider.workItemReader.listWorkItems();
    const specs = () => provider.specReader.listSpecs();
    const revisions = () => provider.revisionReader.listRevisions();
    const cold = {
      workItems: await cost(workItems),
      specs: await cost(specs),
      revisions: await cost(revisions),
    };
    const idle = {
      workItems: await cost(workItems),
      specs: await cost(specs),
      revisions: await cost(revisions),
    };
    if (openItems > 0) github.human.setIssueLabels(1, ['task:implement', 'status:ready']);
    const changed = await cost(workItems);
    return { openItems, cold, idle, changed };
  } finally {
    await github.close();
  }
}

const fmt = (cost: Cost) =>
  `${cost.requests} req / ${cost.points} pts${cost.graphql > 0 ? ` + ${cost.graphql} GraphQL` : ''}`;
console.log(
  '| N (open items = open PRs) | first poll: items / specs / revisions | idle poll: items / specs / revisions | items poll after 1 change | idle REST points/hour | idle GraphQL points/hour | idle requests/hour | decree REST points/hour (2 + (1 + 3N) per 30 s) | idle poll wall time |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const openItems of [0, 10, 50]) {
  const { cold, idle, changed } = await measure(openItems);
  const perHour = (key: 'requests' | 'points' | 'graphql') =>
    (idle.workItems[key] + idle.revisions[key]) * POLLS_PER_HOUR_30S + idle.specs[key] * SPEC_POLLS_PER_HOUR;
  const decree = (2 + 1 + 3 * openItems) * POLLS_PER_HOUR_30S;
  const wall = idle.workItems.ms + idle.specs.ms + idle.revisions.ms;
  console.log(
    `| ${openItems} | ${fmt(cold.workItems)} / ${fmt(cold.specs)} / ${fmt(cold.revisions)} | ${fmt(idle.workItems)} / ${fmt(idle.specs)} / ${fmt(idle.revisions)} | ${fmt(changed)} | ${perHour('points')} | ${perHour('graphql')} | ${perHour('requests')} | ${decree} | ${wall.toFixed(0)} ms |`,
  );
}

/**
 * The answer poll (issue #13): `listComments` of each of K items waiting for input (every 30 s, with the
 * work items), on issues with 5 comments from before the questions (a day and more earlier), the questions
 * comment and 2 comments since. Cold, idle (nothing new), and after one reply on one item.
 */
async function measureAnswerPoll(waitingItems: number) {
  const github = await createFakeGitHub({ token: TOKEN });
  try {
    const provider = createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      apiUrl: github.apiUrl,
      specsDir: 'docs/specs',
      scratchDir: tmpdir(),
      defaultBranch: 'main',
      env: { GITHUB_TOKEN: TOKEN },
      logger: silentLogger,
      client: { quota: { writeIntervalMs: 0 } },
    });
    const askedAt = Date.now();
    const waiting: string[] = [];
    for (let index = 0; index < waitingItems; index++) {
      const issue = github.human.createIssue({
        title: `item ${index}`,
        labels: ['task:implement', 'status:waiting-for-input'],
      });
      for (let old = 0; old < 5; old++)
        github.human.comment(issue, `old ${old}`, { at: askedAt - 48 * 3600_000 });
      await provider.workItemWriter.addComment(String(issue), '<!-- flotilla:questions -->\nWhich DB?');
      github.human.comment(issue, 'thinking…', { login: 'stranger', association: 'NONE' });
      github.human.comment(issue, 'a note', { login: 'ci[bot]', association: 'NONE', bot: true });
      waiting.push(String(issue));
    }
    const since = new Date(askedAt).toISOString();
    const answerPoll = async () => {
      for (const id of waiting) await provider.workItemReader.listComments?.(id, { since });
    };
    const cost = async (poll: () => Promise<unknown>): Promise<Cost> => {
      const from = github.requests.length;
      const started = performance.now();
      await poll();
      const ms = performance.now() - started;
      const requests = github.requests.slice(from);
      return {
        requests: requests.length,
        points: requests.filter((request) => request.counted && request.resource === 'core').length,
        graphql: 0,
        ms,
      };
    };
    // The first poll also reads the engine's login (GET /user), once per process.
    const cold = await cost(answerPoll);
    const idle = await cost(answerPoll);
    if (waitingItems > 0) github.human.comment(Number(waiting[0]), 'Use SQLite.');
    const replied = await cost(answerPoll);
    return { cold, idle, replied };
  } finally {
    await github.close();
  }
}

console.log('');
console.log(
  '| K (items waiting for input) | first answer poll (cold cache) | idle answer poll | answer poll after 1 reply | idle REST points/hour | idle requests/hour | idle answer poll wall time |',
);
console.log('|---|---|---|---|---|---|---|');
for (const waitingItems of [0, 10, 50]) {
  const { cold, idle, replied } = await measureAnswerPoll(waitingItems);
  console.log(
    `| ${waitingItems} | ${fmt(cold)} | ${fmt(idle)} | ${fmt(replied)} | ${idle.points * POLLS_PER_HOUR_30S} | ${idle.requests * POLLS_PER_HOUR_30S} | ${idle.ms.toFixed(0)} ms |`,
  );
}

/**
 * The feedback poll (issue #26): `listFeedback` of each of P open Flotilla pull requests (every 30 s, with
 * the revisions): reviews, review comments and the conversation, each with a human comment already there.
 * Cold, idle (nothing new), and after one @flotilla mention on one pull request.
 */
async function measureFeedbackPoll(openPulls: number) {
  const github = await createFakeGitHub({ token: TOKEN });
  try {
    const provider = createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      apiUrl: github.apiUrl,
      specsDir: 'docs/specs',
      scratchDir: tmpdir(),
      defaultBranch: 'main',
      env: { GITHUB_TOKEN: TOKEN },
      logger: silentLogger,
      client: { quota: { writeIntervalMs: 0 } },
    });
    const pulls: number[] = [];
    for (let index = 0; index < openPulls; index++) {
      const pull = await github.human.openPullRequest({
        branch: `flotilla/${index}`,
        files: { [`src/f${index}.ts`]: 'x\n' },
        title: `PR ${index}`,
      });
      github.human.comment(pull, 'Looks promising.');
      pulls.push(pull);
    }
    const feedbackPoll = async () => {
      for (const pull of pulls) await provider.revisionReader.listFeedback?.(String(pull));
    };
    const cost = async (poll: () => Promise<unknown>): Promise<Cost> => {
      const from = github.requests.length;
      const started = performance.now();
      await poll();
      const ms = performance.now() - started;
      const requests = github.requests.slice(from);
      return {
        requests: requests.length,
        points: requests.filter((request) => request.counted && request.resource === 'core').length,
        graphql: 0,
        ms,
      };
    };
    const cold = await cost(feedbackPoll);
    const idle = await cost(feedbackPoll);
    if (openPulls > 0) github.human.comment(Number(pulls[0]), '@flotilla please add a test');
    const mentioned = await cost(feedbackPoll);
    return { cold, idle, mentioned };
  } finally {
    await github.close();
  }
}

console.log('');
console.log(
  '| P (open Flotilla pull requests) | first feedback poll (cold cache) | idle feedback poll | feedback poll after 1 mention | idle REST points/hour | idle requests/hour | idle feedback poll wall time |',
);
console.log('|---|---|---|---|---|---|---|');
for (const openPulls of [0, 10, 50]) {
  const { cold, idle, mentioned } = await measureFeedbackPoll(openPulls);
  console.log(
    `| ${openPulls} | ${fmt(cold)} | ${fmt(idle)} | ${fmt(mentioned)} | ${idle.points * POLLS_PER_HOUR_30S} | ${idle.requests * POLLS_PER_HOUR_30S} | ${idle.ms.toFixed(0)} ms |`,
  );
}
