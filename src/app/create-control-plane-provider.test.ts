import { afterEach, expect, it } from 'vitest';
import { type FlotillaConfig, flotillaConfigFileSchema } from '../config/index.ts';
import { silentLogger } from '../logging/logger.ts';
import { createTempGitRepo, type TempGitRepo } from '../test-support/create-temp-git-repo.ts';
import { createControlPlane } from './create-control-plane.ts';

let repo: TempGitRepo | null = null;
afterEach(async () => {
  await repo?.cleanup();
  repo = null;
});

it('refuses the github provider, naming the field, until it is wired (issue #12)', async () => {
  repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# x\n' });
  const config: FlotillaConfig = {
    ...flotillaConfigFileSchema.parse({ provider: 'github', github: { owner: 'acme', repo: 'widgets' } }),
    defaultBranch: 'main',
  };
  await expect(createControlPlane({ repoRoot: repo.root, config, logger: silentLogger })).rejects.toThrow(
    /^flotilla.config.json: provider: 'github' cannot run the control plane yet/,
  );
});
