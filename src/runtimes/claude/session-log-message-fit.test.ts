import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type { SessionLogMessage } from '../../session-log/session-log-message.ts';

// The session log is runtime-neutral and never imports the SDK; this runtime hands it SDK messages as they
// come, so the check that they fit its structural type lives here, on the SDK's side of the boundary.
describe('session log and the Claude Agent SDK', () => {
  it('takes every SDK message as it comes', () => {
    expectTypeOf<SDKMessage>().toExtend<SessionLogMessage>();
  });
});
