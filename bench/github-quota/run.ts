import { tmpdir } from 'node:os';
/**
 * GitHub quota benchmark (first slice of issue #12: work items and specs): requests and primary-quota points
 * per poll of the work-item and spec pollers, counted by the fake GitHub on 127.0.0.1, for 0, 10 and 50 open
 * work items (and 5 specs): the first poll (cold caches), an idle poll (nothing changed), and a poll after
 * one item's labels changed. Per hour at the default intervals (work items 30 s, specs 60 s). Revisions (pull
 * requests) are not built yet, so decree's 1 + 3N revision poll is not compared here; decree's work-item
 * poll is 2 unconditional list calls (issues + pull requests) every time. Run: npx tsx bench/github-quota/run.ts
 */
import { silentLogger } from '../../src/logging/logger.ts';
import { createGitHubProvider } from '../../src/providers/github/create-github-provider.ts';
import { createFakeGitHub } from '../../src/providers/github/testing/create-fake-github.ts';

const TOKEN = 'ghp_bench';
const SPECS = 5;
const WORK_ITEM_POLLS_PER_HOUR = 3600 / 30;
const SPEC_POLLS_PER_HOUR = 3600 / 60;

interface Cost {
  requests: number;
  points: number;
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
      return { requests: requests.length, points: requests.filter((request) => request.counted).length, ms };
    };
    const workItems = () => provider.workItemReader.listWorkItems();
    const specs = () => provider.specReader.listSpecs();
    const cold = { workItems: await cost(workItems), specs: await cost(specs) };
    const idle = { workItems: await cost(workItems), specs: await cost(specs) };
    if (openItems > 0) github.human.setIssueLabels(1, ['task:implement', 'status:ready']);
    const changed = await cost(workItems);
    return { openItems, cold, idle, changed };
  } finally {
    await github.close();
  }
}

const fmt = (cost: Cost) => `${cost.requests} req / ${cost.points} pts`;
console.log(
  '| open items | first poll (items + specs) | idle poll (items + specs) | items poll after 1 change | idle points/hour | idle requests/hour | idle poll wall time |',
);
console.log('|---|---|---|---|---|---|---|');
for (const openItems of [0, 10, 50]) {
  const { cold, idle, changed } = await measure(openItems);
  const perHour = (key: 'requests' | 'points') =>
    idle.workItems[key] * WORK_ITEM_POLLS_PER_HOUR + idle.specs[key] * SPEC_POLLS_PER_HOUR;
  console.log(
    `| ${openItems} | ${fmt(cold.workItems)} + ${fmt(cold.specs)} | ${fmt(idle.workItems)} + ${fmt(idle.specs)} | ${fmt(changed)} | ${perHour('points')} | ${perHour('requests')} | ${(idle.workItems.ms + idle.specs.ms).toFixed(1)} ms |`,
  );
}
