import {
  DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS,
  DEFAULT_MENTION_TRIGGER,
  type FlotillaConfig,
} from '../../config/index.ts';
import { runGit } from '../../process/run-command.ts';
// The one production edge to the fake GitHub (test/architecture/dependency-rules.ts says why): the demo
// shows the GitHub loop without an account.
import { createFakeGitHub, type FakeGitHub } from '../../providers/github/testing/create-fake-github.ts';

/** A made-up token: the fake accepts only it, and it means nothing anywhere else. */
const DEMO_TOKEN = 'flotilla-demo-token';
/** How often the fake CI finishes the checks queued on pull request heads. */
const CI_SETTLE_INTERVAL_MS = 1000;

export interface DemoGitHub {
  fake: FakeGitHub;
  /** The demo repository's config, pointed at the fake. */
  config: FlotillaConfig;
  /** Where the control plane reads the token. */
  providerEnv: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The built-in fake GitHub on 127.0.0.1 behind `flotilla demo --provider github`: the demo repository's
 * `main` is pushed to it (same commits, so agents' worktrees and pull requests share a base) and becomes the
 * clone's `origin`; its CI passes every pull request head about a second after it is pushed.
 */
export async function startDemoGitHub(
  repoRoot: string,
  config: FlotillaConfig,
  gitEnv: Readonly<Record<string, string>>,
): Promise<DemoGitHub> {
  const fake = await createFakeGitHub({
    token: DEMO_TOKEN,
    ci: 'passing',
    defaultBranch: config.defaultBranch,
  });
  try {
    const git = (args: string[]) => runGit(args, { cwd: repoRoot, env: gitEnv });
    await git(['push', '--quiet', '--force', fake.gitUrl, `${config.defaultBranch}:${config.defaultBranch}`]);
    await git(['remote', 'add', 'origin', fake.gitUrl]);
  } catch (error) {
    await fake.close();
    throw error;
  }
  let settling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    settling = settling.then(() => fake.settleChecks()).catch(() => {});
  }, CI_SETTLE_INTERVAL_MS);
  timer.unref();
  return {
    fake,
    config: {
      ...config,
      provider: 'github',
      github: {
        owner: fake.owner,
        repo: fake.repo,
        apiUrl: fake.apiUrl,
        gitUrl: fake.gitUrl,
        mergeMethod: 'merge',
        noChecksGrace: 120,
        answerAuthorAssociations: [...DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS],
        mentionTrigger: DEFAULT_MENTION_TRIGGER,
      },
    },
    providerEnv: { FLOTILLA_GITHUB_TOKEN: DEMO_TOKEN },
    async close() {
      clearInterval(timer);
      await settling;
      await fake.close();
    },
  };
}
