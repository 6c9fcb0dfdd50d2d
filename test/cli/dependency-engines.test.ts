/**
 * `npm ci` on the README's minimum Node prints no warnings: every locked package supports that Node version
 * (no EBADENGINE), and every install script is decided in package.json's `allowScripts` (allowed or not).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver comes with npm's own tree (a dependency of several packages here), not as a direct dependency.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const manifest = read('package.json') as { engines: { node: string }; allowScripts: Record<string, boolean> };
const lock = read('package-lock.json') as {
  packages: Record<string, { engines?: { node?: string } | string[]; hasInstallScript?: boolean }>;
};
const minimumNode = semver.minVersion(manifest.engines.node)?.version ?? '';

describe('the dependency tree on the minimum Node', () => {
  it("has a minimum Node version the README states (package.json's engines)", () => {
    expect(minimumNode).toBe('20.19.0');
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain('Node.js ≥ 20.19');
  });

  it('locks no package that needs a newer Node', () => {
    const tooNew = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range === undefined || semver.satisfies(minimumNode, range) ? [] : [`${path} (node ${range})`];
      });
    expect(tooNew).toEqual([]);
  });

  it('decides every install script in allowScripts', () => {
    const undecided = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
      .filter((name) => !(name in manifest.allowScripts));
    expect(undecided).toEqual([]);
  });
});
