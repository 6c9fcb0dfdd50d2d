/**
 * `flotilla run --headless` on a clone of the demo repository hosted on the fake GitHub (127.0.0.1), its
 * agents on the scripted model server: what the GitHub end-to-end tests of proposals and modes share.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeGitHub, type FakeGitHub } from '../../../src/demo/fake-github/create-fake-github.ts';
import type { ModelServer } from '../../../src/model-server/index.ts';
import { FLOTILLA_BIN, type RunFixtures } from '../create-run-fixtures.ts';

export const HOSTED_TOKEN = 'e2e-github-proposals-token';

export interface HostedRepository {
  root: string;
  gitEnv: Record<string, string>;
  fake: FakeGitHub;
}

/**
 * The demo repository with `settings` over its config, `prepare` run on it and all committed, pushed to a
 * fake GitHub; then its config points at that GitHub (the provider), uncommitted.
 */
export async function hostedDemoRepository(
  fixtures: RunFixtures,
  settings: Record<string, unknown>,
  prepare?: (root: string) => void,
): Promise<HostedRepository> {
  const repo = await fixtures.demoRepository();
  const fake = await createFakeGitHub({ token: HOSTED_TOKEN, ci: 'passing' });
  fixtures.defer(() => fake.close());
  const configPath = join(repo.root, 'flotilla.config.json');
  const config = {
    ...(JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>),
    ...settings,
  };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  prepare?.(repo.root);
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
  git(['add', '-A']);
  git(['commit', '--quiet', '-m', 'Flotilla settings for the test']);
  git(['push', '--quiet', '--force', fake.gitUrl, 'main:main']);
  config.provider = 'github';
  config.github = { owner: fake.owner, repo: fake.repo, apiUrl: fake.apiUrl, gitUrl: fake.gitUrl };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return { root: repo.root, gitEnv: repo.gitEnv, fake };
}

export interface FlotillaRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `flotilla run --headless` in the hosted repository, its Claude agents answered by `server`. */
export function startHostedFlotilla(
  fixtures: RunFixtures,
  hosted: { root: string; gitEnv: Record<string, string> },
  server: ModelServer,
): FlotillaRun {
  let output = '';
  const child = spawn(process.execPath, [FLOTILLA_BIN, 'run', '--headless'], {
    cwd: hosted.root,
    env: {
      ...process.env,
      ...hosted.gitEnv,
      FLOTILLA_GITHUB_TOKEN: HOSTED_TOKEN,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  fixtures.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, output: () => output, exited };
}

/** Polls `check` (every 50 ms) until it holds; on timeout the error carries `context()` (flotilla's output). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  context: () => string,
  timeoutMs = 150_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}\n${context()}`);
}

/** Every issue of the fake repository, as the API lists them. */
export async function listIssues(
  fake: FakeGitHub,
): Promise<
  { number: number; title: string; body: string | null; state: string; labels: { name: string }[] }[]
> {
  const response = await fetch(
    `${fake.apiUrl}/repos/${fake.owner}/${fake.repo}/issues?state=all&per_page=100`,
    {
      headers: { authorization: `token ${HOSTED_TOKEN}` },
    },
  );
  return (await response.json()) as {
    number: number;
    title: string;
    body: string | null;
    state: string;
    labels: { name: string }[];
  }[];
}
