/**
 * The agents the tests start never see the developer's real home (test/global-setup/throwaway-home.ts): a
 * Claude Bash-tool shell, started through the shared real-SDK fixture without the OS sandbox (which would
 * give it its own home anyway), reports a HOME that is not the user's and holds no shell start-up files.
 */
import { readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  adapterFor,
  fixture,
  implementorParams,
  installClaudeAdapterFixture,
} from '../../support/claude-adapter-fixture.ts';

installClaudeAdapterFixture();

/** What `echo "HOME=[$HOME]"` printed, read from the tool result the CLI sent back to the model. */
function echoedHome(): string | undefined {
  const bodies = (fixture.server?.requests ?? []).map((request) => JSON.stringify(request.body));
  return bodies.flatMap((body) => [...body.matchAll(/HOME=\[([^\]]*)\]/g)].map((match) => match[1])).at(-1);
}

describe('agent processes in tests', { timeout: 120_000 }, () => {
  it("a Claude Bash-tool shell gets the run's throwaway HOME, not the user's home", async () => {
    const adapter = await adapterFor(
      {
        name: 'agent-home',
        routes: [
          {
            name: 'implementor',
            steps: [
              {
                content: [
                  {
                    type: 'tool_use',
                    name: 'Bash',
                    input: { command: 'echo "HOME=[$HOME]"', description: 'Print HOME' },
                  },
                ],
              },
              {
                expect: { lastToolResultIncludes: 'HOME=[' },
                structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'Looked at HOME.' },
              },
            ],
          },
        ],
      },
      { permissive: true },
    );
    const handle = await adapter.startAgent(implementorParams);
    await handle.result;

    const home = echoedHome();
    expect(home).toBe(process.env.HOME);
    expect(home).not.toBe(userInfo().homedir);
    // Nothing a shell would run at start: the throwaway home holds no start-up file.
    const startupFiles = readdirSync(home ?? '/').filter((name) =>
      ['.bashrc', '.bash_profile', '.profile', '.bash_login', '.zshrc'].includes(name),
    );
    expect(startupFiles).toEqual([]);
  });
});
