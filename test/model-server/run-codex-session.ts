import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Codex, type ThreadEvent, type ThreadItem, type ThreadOptions, type Usage } from '@openai/codex-sdk';
import { buildCodexServerConfig } from '../../src/model-server/index.ts';
import { messageOf } from '../../src/shared/message-of.ts';

/**
 * Scratch CODEX_HOMEs of these tests: not under the temporary directory /tmp (nor under a checkout that may
 * lie there), where codex refuses to create its sandbox helper.
 */
const CODEX_HOMES = '/var/tmp/flotilla-test-codex-homes';

export interface CodexSession {
  /** Every event of the streamed turn, in order. */
  events: ThreadEvent[];
  /** Completed items (agent messages, command executions, …). */
  items: ThreadItem[];
  /** Text of the last agent message (the JSON when an output schema was given). */
  finalResponse: string;
  usage: Usage | undefined;
  /** A `turn.failed` / `error` event's message, or what the event stream threw. */
  error: string | undefined;
  codexHome: string;
  durationMs: number;
}

export interface CodexSessionInput {
  serverUrl: string;
  prompt: string;
  /** The working directory (a git repository). */
  cwd: string;
  outputSchema?: Record<string, unknown>;
  threadOptions?: ThreadOptions;
  /** See `buildCodexServerConfig` (default: codex's own, /tmp writable). */
  writableTmp?: boolean;
}

const created: string[] = [];

export async function cleanupCodexSessions(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * Runs one real codex turn (the `codex` binary the SDK bundles) against the scripted model server, with a
 * fresh CODEX_HOME holding the scripted provider's config.toml; nothing leaves 127.0.0.1.
 */
export async function runCodexSession(input: CodexSessionInput): Promise<CodexSession> {
  // Not under the temporary directory: with Debian's bubblewrap on PATH, codex refuses to create its sandbox
  // helper there and every command then fails (docs/sandbox-facts.md).
  await mkdir(CODEX_HOMES, { recursive: true });
  const codexHome = await mkdtemp(join(CODEX_HOMES, 'model-server-codex-home-'));
  created.push(codexHome);
  const { configToml, env } = buildCodexServerConfig({
    baseUrl: input.serverUrl,
    codexHome,
    model: 'scripted',
    // Anything codex (or git) tries to reach outside 127.0.0.1 lands on the server and shows in its report.
    proxyTripwire: true,
    ...(input.writableTmp === undefined ? {} : { writableTmp: input.writableTmp }),
  });
  await writeFile(join(codexHome, 'config.toml'), configToml);
  const thread = new Codex({ env }).startThread({
    workingDirectory: input.cwd,
    sandboxMode: 'workspace-write',
    approvalPolicy: 'never',
    ...input.threadOptions,
  });
  const events: ThreadEvent[] = [];
  const items: ThreadItem[] = [];
  let finalResponse = '';
  let usage: Usage | undefined;
  let error: string | undefined;
  const started = Date.now();
  try {
    const { events: stream } = await thread.runStreamed(
      input.prompt,
      input.outputSchema === undefined ? {} : { outputSchema: input.outputSchema },
    );
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'item.completed') {
        items.push(event.item);
        if (event.item.type === 'agent_message') finalResponse = event.item.text;
      } else if (event.type === 'turn.completed') {
        usage = event.usage;
      } else if (event.type === 'turn.failed') {
        error = event.error.message;
      } else if (event.type === 'error') {
        error = event.message;
      }
    }
  } catch (thrown) {
    error ??= messageOf(thrown);
  }
  return { events, items, finalResponse, usage, error, codexHome, durationMs: Date.now() - started };
}
