import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Codex, type Usage } from '@openai/codex-sdk';
import type { KeptSession } from '../../domain/index.ts';
import type { SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import { agentBinDir, withAgentBinOnPath } from '../shared/agent-command-channel.ts';
import type { TurnSetup } from '../shared/agent-turn.ts';
import { buildAgentSandboxRequest } from '../shared/build-agent-sandbox-request.ts';
import { buildModeInstructions } from '../shared/build-mode-instructions.ts';
import { chooseRunModel } from '../shared/choose-run-model.ts';
import { readOnlyModeOf } from '../shared/settle-agent-output.ts';
import { buildCodexConfigToml } from './build-codex-config-toml.ts';
import { buildCodexEnv } from './build-codex-env.ts';
import { buildCodexInstructions } from './build-codex-instructions.ts';
import type { CodexRuntimeConfig } from './codex-runtime-config.ts';
import type { CodexHomes } from './create-codex-homes.ts';
import { type CodexBinary, findCodexBinary } from './find-codex-binary.ts';
import { writeCodexLauncher } from './write-codex-launcher.ts';

/** What the runtime shares between its runs. */
export interface CodexRunContext {
  config: CodexRuntimeConfig;
  homes: CodexHomes;
  /** The provider's key variables: kept for codex, removed from its commands. */
  modelKeyVariables: readonly string[];
}

/** The project context files, read fresh per run; a missing one is a provisioning failure naming it. */
async function readContextFiles(config: CodexRuntimeConfig): Promise<{ path: string; text: string }[]> {
  return Promise.all(
    (config.contextPaths ?? []).map(async (path) => {
      const file = join(config.repoRoot, path);
      try {
        return { path, text: await readFile(file, 'utf8') };
      } catch (error) {
        throw new Error(`Cannot read the project context file ${file}: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }),
  );
}

/** A kept session this runtime can resume: its thread id, its CODEX_HOME and its worktree still there. */
export function checkKeptCodexSession(session: KeptSession, runtime: string): void {
  if (session.runtime !== runtime)
    throw new Error(`the session to resume was kept by runtime '${session.runtime}', not '${runtime}'`);
  if (session.agentSessionID === null) throw new Error('the session to resume has no codex thread id');
  if (session.stateDir === null || !existsSync(session.stateDir))
    throw new Error(`the CODEX_HOME of the session to resume is gone (${session.stateDir})`);
  if (session.worktree !== null && !existsSync(session.worktree.path))
    throw new Error(`the kept worktree of the session to resume is gone (${session.worktree.path})`);
}

/** What codex needs of the run's notes channel (issue #28 §2): a writable run directory, and the tool server. */
function codexRunChannel(runDir: string) {
  return {
    // Without Flotilla's sandbox codex's own keeps commands to the worktree: the notes file must be writable.
    writableRoots: [runDir],
    // Flotilla's tools: the per-run script's `flotilla agent mcp`, on the run's notes channel.
    toolServer: { command: join(agentBinDir(runDir), 'flotilla'), args: ['agent', 'mcp'] },
  };
}

/**
 * One run's codex: its CODEX_HOME (fresh, or the kept one of a resume) with the role's instructions, the
 * scrubbed environment, the launcher (inside the OS sandbox when on) and the thread (new, or resumed).
 */
export async function provisionCodexRun(context: CodexRunContext, setup: TurnSetup) {
  const { config, homes } = context;
  const { params, role, clock, worktree, runDir, sessionID } = setup;
  const { resume } = params;
  // models.implementor's choice by complexity (issue #29) over the role's model.
  const model = chooseRunModel(params, role, config);
  /** The run's codex state (its CODEX_HOME inside): kept with the session when the agent asks. */
  let codexStateDir: string | null = resume?.session.stateDir ?? null;
  let launcher: SandboxedCommand | null = null;
  setup.onRelease(async (kept) => {
    await launcher?.dispose().catch(() => {});
    if (!kept && codexStateDir !== null) await homes.remove(codexStateDir).catch(() => {});
  });
  /** A resumed thread's usage up to the resume (codex counts it again in every later turn). */
  const priorThreadUsage: Usage | null =
    codexStateDir !== null ? await homes.readThreadUsage(codexStateDir) : null;
  // A read-only mode (investigate, refine; issue #29) gets the mode's task instead of the role's.
  const mode = readOnlyModeOf(params);
  const roleInstructions = mode !== undefined ? buildModeInstructions(mode) : config.roleInstructions?.[role];
  const developerInstructions = buildCodexInstructions({
    role,
    ...(roleInstructions !== undefined && { roleInstructions }),
    contextFiles: await readContextFiles(config),
  });
  const configToml = buildCodexConfigToml({
    developerInstructions,
    ...codexRunChannel(runDir),
    ...(model !== undefined && { model }),
    ...(config.provider !== undefined && { provider: config.provider }),
  });
  // The thread continues in the CODEX_HOME that holds its rollout; its config.toml is written again.
  const home = await clock.time('codex-home', () =>
    codexStateDir === null ? homes.create(sessionID, configToml) : homes.reopen(codexStateDir, configToml),
  );
  codexStateDir = home.stateDir;
  const { codexHome } = home;

  const env = buildCodexEnv({
    baseEnv: config.baseEnv ?? process.env,
    codexHome,
    modelKeyVariables: [...context.modelKeyVariables],
    ...(config.passThroughEnv !== undefined && { passThrough: config.passThroughEnv }),
    ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
    extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
  });
  const sandbox = config.sandbox?.mode === 'on' ? config.sandbox : undefined;
  const stderrLog = join(runDir, 'codex-stderr.log');
  await setup.makeRunDir();
  try {
    const binary: CodexBinary =
      config.codexPath !== undefined ? { executablePath: config.codexPath, pathDirs: [] } : findCodexBinary();
    // Flotilla's tools as `flotilla agent <verb>` in codex's commands (the per-run script; issue #28 §2).
    const codexEnv = withAgentBinOnPath({ ...env }, runDir);
    if (binary.pathDirs.length > 0)
      codexEnv.PATH = [...binary.pathDirs, ...(codexEnv.PATH === undefined ? [] : [codexEnv.PATH])].join(':');
    launcher =
      sandbox !== undefined
        ? await clock.time('sandbox', () =>
            sandbox.wrap(
              buildAgentSandboxRequest({
                repoRoot: config.repoRoot,
                worktree: worktree?.path ?? null,
                readOnlyWorktree: mode !== undefined,
                runStateDir: runDir,
                extraWritable: [codexHome],
                env: codexEnv,
                network:
                  config.provider !== undefined
                    ? [config.provider.baseUrl]
                    : [codexEnv.OPENAI_BASE_URL ?? 'https://api.openai.com'],
                programs: [binary.executablePath],
                onNetworkRefused: setup.refusals.onNetworkRefused,
              }),
              binary.executablePath,
              [],
            ),
          )
        : { file: binary.executablePath, args: [], env: codexEnv, dispose: async () => {} };
  } catch (error) {
    throw new Error(
      sandbox !== undefined ? `the OS sandbox could not start: ${messageOf(error)}` : messageOf(error),
    );
  }
  const launcherPath = await writeCodexLauncher(runDir, launcher, stderrLog);
  const codex = new Codex({ env: launcher.env, codexPathOverride: launcherPath });
  const threadOptions = {
    workingDirectory: setup.cwd,
    // Inside Flotilla's sandbox codex's own would nest a second bubblewrap: ours is the boundary. Without
    // it, planner and reviewer read the repository; only the implementor writes, and only its worktree.
    // A read-only mode runs in codex's `read-only` sandbox in both cases (inside ours too: two layers).
    sandboxMode:
      mode !== undefined
        ? 'read-only'
        : sandbox !== undefined
          ? 'danger-full-access'
          : role === 'implementor'
            ? 'workspace-write'
            : 'read-only',
    approvalPolicy: 'never',
    networkAccessEnabled: false,
    webSearchMode: 'disabled',
  } as const;
  // Answers continue the asking thread: codex sends its earlier turns from the rollout in CODEX_HOME.
  const thread =
    resume?.session.agentSessionID != null
      ? codex.resumeThread(resume.session.agentSessionID, threadOptions)
      : codex.startThread(threadOptions);
  return {
    model,
    mode,
    env,
    codexHome,
    codexStateDir: home.stateDir,
    priorThreadUsage,
    stderrLog,
    sandboxed: sandbox !== undefined,
    thread,
  };
}

export type CodexRun = Awaited<ReturnType<typeof provisionCodexRun>>;
