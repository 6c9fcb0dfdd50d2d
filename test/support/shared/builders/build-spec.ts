import type { Spec } from '../../../../src/domain/index.ts';

/** An approved spec, unless overridden. */
export function buildSpec(overrides: Partial<Spec> = {}): Spec {
  return {
    filePath: 'docs/specs/alpha.md',
    blobSHA: 'sha-alpha-1',
    frontmatterStatus: 'approved',
    ...overrides,
  };
}
