import { describe, expect, it } from 'vitest';
import { flotillaConfigFileSchema } from './flotilla-config-schema.ts';
import { formatConfigIssues } from './format-config-issues.ts';

const sandboxOf = (sandbox: unknown) => flotillaConfigFileSchema.safeParse({ sandbox });

describe('config: sandbox', () => {
  it('is on by default, nothing widened', () => {
    const parsed = flotillaConfigFileSchema.parse({});
    expect(parsed.sandbox).toEqual({
      mode: 'on',
      networkAllow: [],
      passEnv: [],
      allowRead: [],
      denyRead: [],
    });
  });

  it('takes "off", and the settings object', () => {
    expect(sandboxOf('off').data?.sandbox.mode).toBe('off');
    const parsed = sandboxOf({
      network: { allow: ['registry.npmjs.org'] },
      passEnv: ['NODE_ENV'],
      filesystem: { allowRead: ['/opt/toolchain'], denyRead: ['/srv/secrets'] },
    });
    expect(parsed.data?.sandbox).toEqual({
      mode: 'on',
      networkAllow: ['registry.npmjs.org'],
      passEnv: ['NODE_ENV'],
      allowRead: ['/opt/toolchain'],
      denyRead: ['/srv/secrets'],
    });
  });

  it('names the field and what was expected', () => {
    for (const bad of ['maybe', { mode: 'sometimes' }, { filesystem: { denyRead: ['relative/path'] } }]) {
      const parsed = sandboxOf(bad);
      expect(parsed.success).toBe(false);
      const lines = formatConfigIssues({
        issues: parsed.error?.issues ?? [],
        input: { sandbox: bad },
        fileLabel: 'flotilla.config.json',
        knownKeysAt: () => [],
      });
      expect(lines.join('\n')).toMatch(
        /^flotilla\.config\.json: sandbox\S*: (expected )?('on'|an absolute path)/,
      );
    }
  });
});
