import { existsSync } from 'node:fs';
import type { KeptSession } from '../../domain/index.ts';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createRunShell, type ShellRuntime } from '../shared/create-run-shell.ts';
import { checkGeminiAvailability } from './check-gemini-availability.ts';
import type { GeminiRuntimeConfig } from './gemini-runtime-config.ts';
import { prepareGeminiTurn } from './prepare-gemini-turn.ts';

export type { GeminiRuntimeConfig } from './gemini-runtime-config.ts';

/**
 * The Gemini CLI runtime (issue 27): each run drives the real gemini-cli (`@google/gemini-cli`) headless
 * (`--output-format stream-json`), inside the OS sandbox, with a scrubbed environment and a HOME of the run's
 * own; the implementor works in a worktree of its own (`yolo`: every tool approved, the sandbox is the
 * boundary), planner and reviewer read the repository (`plan`: read-only tools). The final message is the
 * role's result, validated as untrusted input; a fix round or a human's answers resume the same gemini
 * session. The run itself is the shared run shell's; its turn is prepare-gemini-turn.ts.
 */
export function createGeminiRuntime(config: GeminiRuntimeConfig): ShellRuntime {
  const { logger } = config;
  const runtime = config.runtime ?? 'gemini';
  return createRunShell(
    {
      ...config,
      runtime,
      createSessionLog:
        config.createSessionLog ??
        (config.logging.agentSessions
          ? createSessionLogFactory({
              logsDir: config.logging.logsDir,
              enabled: true,
              logger,
              maxBytes: config.logging.maxRunBytes,
            })
          : null),
    },
    {
      continues: 'session',
      // A resumed run continues in the kept worktree and home (gemini's session file is there).
      keepsRunDir: true,
      returnsWhenStarted: false,
      worktreeFor: (params) =>
        params.role === 'implementor' ? { branchName: `agent/${params.branchName}` } : null,
      checkResume: (session) => checkKeptSession(session, runtime),
      prepare: (setup) => prepareGeminiTurn(config, setup),
      // Read-only modes: the worktree bound read-only by the OS sandbox (refused with the sandbox off).
      runsReadOnlyModes: true,
      checkAvailability: () =>
        checkGeminiAvailability({
          env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
          binary: config.binary,
        }),
    },
  );
}

/** Throws, saying what is missing, unless this runtime kept the session and its home and worktree remain. */
function checkKeptSession(session: KeptSession, runtime: string): void {
  if (session.runtime !== runtime)
    throw new Error(`the session to resume was kept by runtime '${session.runtime}', not '${runtime}'`);
  if (session.agentSessionID === null) throw new Error('the session to resume has no gemini session id');
  if (session.stateDir === null || !existsSync(session.stateDir))
    throw new Error(`the home of the session to resume is gone (${session.stateDir})`);
  if (session.worktree !== null && !existsSync(session.worktree.path))
    throw new Error(`the kept worktree of the session to resume is gone (${session.worktree.path})`);
}
