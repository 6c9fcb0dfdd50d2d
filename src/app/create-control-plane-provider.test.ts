import { afterEach, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { type FlotillaConfig, flotillaConfigFileSchema } from '../config/index.ts';
import { createFakeGitHub, type FakeGitHub } from '../demo/fake-github/create-fake-github.ts';
import { silentLogger } from '../logging/logger.ts';
import { createControlPlane } from './create-control-plane.ts';

let repo: TempGitRepo | null = null;
let fake: FakeGitHub | null = null;
afterEach(async () => {
  await repo?.cleanup();
  await fake?.close();
  repo = null;
  fake = null;
});

function githubConfig(github: Record<string, string>): FlotillaConfig {
  return {
    ...flotillaConfigFileSchema.parse({ provider: 'github', github }),
    defaultBranch: 'main',
  };
}

it('refuses the github provider without a token, naming the variables, and releases the run lock', async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# x\n' });
  const config = githubConfig({ owner: 'acme', repo: 'widgets' });
  const start = () =>
    createControlPlane({ repoRoot: repo?.root ?? '', config, logger: silentLogger, providerEnv: {} });
  await expect(start()).rejects.toThrow(/no GitHub token: set FLOTILLA_GITHUB_TOKEN \(or GITHUB_TOKEN\)/);
  // Refused again for the same reason, not for a lock the first attempt kept.
  await expect(start()).rejects.toThrow(/no GitHub token/);
});

it('runs the control plane on the github provider: specs come from the repository on GitHub', async () => {
  fake = await createFakeGitHub({
    token: 'secret-token',
    baseFiles: { 'docs/specs/a.md': '---\nstatus: approved\n---\n# A\n' },
  });
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# x\n' });
  const config = githubConfig({
    owner: fake.owner,
    repo: fake.repo,
    apiUrl: fake.apiUrl,
    gitUrl: fake.gitUrl,
  });
  const controlPlane = await createControlPlane({
    repoRoot: repo.root,
    config,
    logger: silentLogger,
    providerEnv: { GITHUB_TOKEN: 'secret-token' },
  });
  try {
    expect(controlPlane.provider.name).toBe('github');
    const listing = await controlPlane.provider.specReader.listSpecs();
    expect(listing.specs.map((spec) => spec.filePath)).toEqual(['docs/specs/a.md']);
    // The budget GitHub reported, for the dashboard header.
    expect(controlPlane.provider.quota?.()?.core?.limit).toBe(5000);
  } finally {
    await controlPlane.close();
  }
});
