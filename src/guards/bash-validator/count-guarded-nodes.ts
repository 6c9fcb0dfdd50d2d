/** Node kinds the walker must reach; the completeness guard counts them with mvdan's own Walk. */
const GUARDED_KINDS = new Set([
  'CallExpr',
  'DeclClause',
  'LetClause',
  'CoprocClause',
  'FuncDecl',
  'TestClause',
  'ArithmCmd',
  'CmdSubst',
  'ProcSubst',
  'ArithmExp',
  'ParamExp',
]);

/** Counts guarded nodes by visiting every field of every node, independently of the walker's knowledge. */
export function countGuardedNodes(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      if (typeof node.type === 'string' && GUARDED_KINDS.has(node.type)) count += 1;
      for (const key in node) stack.push(node[key]);
    }
  }
  return count;
}
