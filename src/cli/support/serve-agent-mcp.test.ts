/**
 * `flotilla agent mcp` as codex starts it (a stdio MCP server, `bin/flotilla.js` on dist/: `npm run build`
 * first), driven by the MCP SDK's own client: it lists Flotilla's tools, appends a valid call to the run's
 * notes file and refuses an invalid one, reads the inbox, and waits for the run's reply to an ask.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOTILLA_BIN } from '../../../test/support/create-run-fixtures.ts';
import {
  AGENT_INBOX_FILE,
  AGENT_NOTES_FILE,
  AGENT_REPLIES_DIR,
} from '../../runtimes/shared/agent-command-channel.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(role: string): Promise<{ client: Client; runDir: string }> {
  const runDir = mkdtempSync(join(tmpdir(), 'flotilla-agent-mcp-'));
  cleanups.push(() => rmSync(runDir, { recursive: true, force: true }));
  writeFileSync(join(runDir, AGENT_NOTES_FILE), '');
  mkdirSync(join(runDir, AGENT_REPLIES_DIR));
  writeFileSync(join(runDir, AGENT_INBOX_FILE), '[]\n');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FLOTILLA_BIN, 'agent', 'mcp'],
    // What the per-run script sets; nothing else of this process's environment.
    env: { FLOTILLA_AGENT_NOTES: join(runDir, AGENT_NOTES_FILE), FLOTILLA_AGENT_ROLE: role },
  });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, runDir };
}

const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { text?: string }[]).map((part) => part.text ?? '').join('\n');
const callsIn = (runDir: string) =>
  readFileSync(join(runDir, AGENT_NOTES_FILE), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { tool: string; input: unknown; callID?: string });

describe('flotilla agent mcp', () => {
  it("lists Flotilla's seven tools; a valid note is appended, an invalid one refused and not", async () => {
    const { client, runDir } = await connect('planner');
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual(
      [
        'answer_agent',
        'ask_agent',
        'check_messages',
        'log_question',
        'record_decision',
        'store_memory',
        'update_summary',
      ].sort(),
    );
    const stored = await client.callTool({
      name: 'store_memory',
      arguments: { topic: 'build', text: 'Run make first.' },
    });
    expect(stored.isError).toBeFalsy();
    expect(textOf(stored)).toContain('Memory stored');
    // A planner changes no code: a note carrying a patch is refused (the role's rule), as the commands do.
    const refused = await client.callTool({
      name: 'record_decision',
      arguments: { decision: 'Patch it', why: '--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Refused: /);
    expect(callsIn(runDir)).toEqual([
      { tool: 'store_memory', input: { topic: 'build', text: 'Run make first.' } },
    ]);
  }, 60_000);

  it('check_messages reads the inbox; ask_agent waits for the run shell’s reply', async () => {
    const { client, runDir } = await connect('implementor');
    expect(textOf(await client.callTool({ name: 'check_messages', arguments: {} }))).toBe(
      'No questions are waiting for you.',
    );
    writeFileSync(
      join(runDir, AGENT_INBOX_FILE),
      JSON.stringify([{ conversationID: 'c-1234abcd', from: 'implementor of #3', question: 'Which port?' }]),
    );
    const inbox = textOf(await client.callTool({ name: 'check_messages', arguments: {} }));
    expect(inbox).toContain('Which port?');
    expect(inbox).toContain('c-1234abcd');

    const asking = client.callTool({ name: 'ask_agent', arguments: { to: '3', question: 'And yours?' } });
    // Play the run shell: once the call is in the notes file, write its reply.
    let call: { callID?: string } | undefined;
    while (call === undefined) {
      call = callsIn(runDir).find((line) => line.tool === 'ask_agent');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    writeFileSync(
      join(runDir, AGENT_REPLIES_DIR, `${call.callID}.json`),
      JSON.stringify({ ok: true, text: 'Port 9090.' }),
    );
    expect(textOf(await asking)).toBe('Port 9090.');
  }, 60_000);
});
