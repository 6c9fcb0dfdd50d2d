import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Options, query, type SDKMessage, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { buildModelServerEnv } from '../../src/model-server/index.ts';

export interface SdkSession {
  messages: SDKMessage[];
  /** The last result message (the CLI can emit several, e.g. after a background subagent). */
  result: SDKResultMessage | undefined;
  /** What the iterator threw after the result, if anything (error results do throw). */
  error: unknown;
  cwd: string;
  durationMs: number;
}

export interface SdkSessionInput {
  serverUrl: string;
  prompt: string;
  /** Working directory; a fresh temp dir (removed with `cleanup`) when omitted. */
  cwd?: string;
  options?: Omit<Options, 'cwd' | 'env'>;
}

/** Temp dirs created by sessions; removed by `cleanupSessions()`. */
const created: string[] = [];

export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export async function cleanupSessions(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Runs one real SDK session (bundled `claude` CLI) against the model server; nothing leaves 127.0.0.1. */
export async function runSdkSession(input: SdkSessionInput): Promise<SdkSession> {
  const cwd = input.cwd ?? (await makeTempDir('model-server-cwd-'));
  const stateDir = await makeTempDir('model-server-state-');
  const messages: SDKMessage[] = [];
  let result: SDKResultMessage | undefined;
  let error: unknown;
  const started = Date.now();
  try {
    for await (const message of query({
      prompt: input.prompt,
      options: {
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        settingSources: [],
        persistSession: false,
        ...input.options,
        cwd,
        env: buildModelServerEnv({ baseUrl: input.serverUrl, stateDir }),
      },
    })) {
      messages.push(message);
      if (message.type === 'result') result = message;
    }
  } catch (caught) {
    error = caught;
  }
  return { messages, result, error, cwd, durationMs: Date.now() - started };
}
