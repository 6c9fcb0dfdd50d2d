import { describe, expect, it } from 'vitest';
import { createGitIdentityCache } from './create-git-identity-cache.ts';

describe('createGitIdentityCache', () => {
  it('reads once per repository within the ttl, again after it, and forgets a failed read', async () => {
    let clock = 0;
    const reads: string[] = [];
    let fail = false;
    const cache = createGitIdentityCache({
      ttlMs: 100,
      now: () => clock,
      read: async (worktree) => {
        reads.push(worktree);
        if (fail) throw new Error('git config failed');
        return { name: `n${reads.length}`, email: 'e' };
      },
    });
    const [a, b] = await Promise.all([cache.get('/repo', '/wt/1'), cache.get('/repo', '/wt/2')]);
    expect([a.name, b.name, reads]).toEqual(['n1', 'n1', ['/wt/1']]);
    expect((await cache.get('/other', '/o/1')).name).toBe('n2');
    clock = 100;
    fail = true;
    await expect(cache.get('/repo', '/wt/3')).rejects.toThrow('git config failed');
    fail = false;
    expect((await cache.get('/repo', '/wt/4')).name).toBe('n4');
    expect(reads).toEqual(['/wt/1', '/o/1', '/wt/3', '/wt/4']);
  });
});
