import { describe, expect, it } from 'vitest';
import { resolveClusterDatabaseUrl } from './resolve-cluster-database-url.ts';

describe('resolveClusterDatabaseUrl', () => {
  it('reads the URL from the variable the reference names ($NAME or its braced form)', () => {
    const env = { DB: 'postgres://flotilla@127.0.0.1:5432/flotilla' };
    expect(resolveClusterDatabaseUrl('$DB', env)).toEqual({ ok: true, variable: 'DB', url: env.DB });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the braced form of a variable reference
    expect(resolveClusterDatabaseUrl('${DB}', env)).toEqual({ ok: true, variable: 'DB', url: env.DB });
  });

  it('says which variable is unset or not a PostgreSQL URL, never printing its value', () => {
    expect(resolveClusterDatabaseUrl('$DB', {})).toEqual({
      ok: false,
      variable: 'DB',
      problem: '$DB (cluster.postgres) is not set',
    });
    const wrong = resolveClusterDatabaseUrl('$DB', { DB: 'mysql://root:secret@db' });
    expect(wrong.ok).toBe(false);
    expect(JSON.stringify(wrong)).not.toContain('secret');
  });
});
