import type { ImplementorResult } from '../../../../src/domain/index.ts';

/** A completed implementation with a one-file patch, unless overridden. */
export function buildImplementorResult(overrides: Partial<ImplementorResult> = {}): ImplementorResult {
  const outcome = overrides.outcome ?? 'completed';
  return {
    role: 'implementor',
    outcome,
    summary:
      outcome === 'completed' ? 'Implemented the parser with tests.' : 'Could not proceed: see details.',
    patch:
      outcome === 'completed'
        ? 'diff --git a/src/parser.ts b/src/parser.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/parser.ts\n@@ -0,0 +1 @@\n+export const parse = () => 1;\n'
        : null,
    ...overrides,
  };
}
