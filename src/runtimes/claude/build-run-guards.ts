import type { AgentRole, WorkItemMode } from '../../domain/index.ts';
import { isReadOnlyMode } from '../../domain/index.ts';
import type { BashValidatorHook } from '../../guards/bash-validator/index.ts';
import {
  AGENT_SESSION_TOOLS,
  createPathGuardHook,
  type PathGuardHook,
} from '../../guards/path-guard/index.ts';

/**
 * The two guards of one run: the file-path guard (the working tree writable by implement runs only) and the
 * bash validator (the read-only one for `investigate` and `refine`, issue #29). A read-only run without a
 * read-only validator throws: it is never given the ordinary one (fail closed).
 */
export function buildRunGuards(params: {
  role: AgentRole;
  mode: WorkItemMode | undefined;
  root: string;
  readOnlyPaths: readonly string[];
  deniedPaths: readonly string[];
  bashValidatorHook: BashValidatorHook;
  readOnlyBashValidatorHook: BashValidatorHook | undefined;
}): { pathGuard: PathGuardHook; bashValidator: BashValidatorHook } {
  const readOnly = isReadOnlyMode(params.mode);
  const bashValidator = readOnly ? params.readOnlyBashValidatorHook : params.bashValidatorHook;
  if (bashValidator === undefined) {
    throw new Error(
      `the ${params.mode} run needs the read-only bash validator, and none is configured (fail closed)`,
    );
  }
  const pathGuard = createPathGuardHook({
    root: params.root,
    writable: params.role === 'implementor' && !readOnly,
    // Any other tool (an MCP server's, one a later CLI adds) is refused.
    allowedTools: AGENT_SESSION_TOOLS,
    readOnlyPaths: params.readOnlyPaths,
    deniedPaths: params.deniedPaths,
  });
  return { pathGuard, bashValidator };
}
