import { describe, expect, it } from 'vitest';
import { AgentRunFailure } from '../../engine/runtime-contract/index.ts';
import { createSandboxRefusals } from './create-sandbox-refusals.ts';

describe('createSandboxRefusals', () => {
  it('notes each refusal at once and names them, once each, in the failure', () => {
    const notes: string[] = [];
    const refusals = createSandboxRefusals({ note: (text) => notes.push(text) });
    for (const target of ['a.example:443', 'a.example:443', 'b.example:443', 'GET http://c.example/'])
      refusals.onNetworkRefused(target);
    expect(notes).toHaveLength(4);
    expect(notes[0]).toBe(
      "the OS sandbox refused a connection to a.example:443: not in the agent's network allow-list (sandbox.network.allow)",
    );
    const failure = refusals.explain(new AgentRunFailure('rate-limit', 'empty patch', { resetsAt: 5 }));
    expect(failure.message).toBe(
      'empty patch — the OS sandbox refused 4 connection(s) to a.example:443, b.example:443, GET http://c.example/ (not in sandbox.network.allow)',
    );
    expect([failure.reason, failure.resetsAt]).toEqual(['rate-limit', 5]);
  });

  it("quotes bwrap's and the forwarder's own lines, ignores the rest, and leaves a clean run's failure alone", () => {
    const refusals = createSandboxRefusals({ note: () => {} });
    const plain = new AgentRunFailure('error', 'exited 1');
    refusals.line('some agent output');
    expect(refusals.explain(plain)).toBe(plain);
    refusals.line("bwrap: Can't mkdir /x: Read-only file system");
    refusals.line('flotilla sandbox: cannot listen on 127.0.0.1:8080: EADDRINUSE');
    expect(refusals.explain(plain).message).toBe(
      'exited 1 — the OS sandbox reported: "bwrap: Can\'t mkdir /x: Read-only file system"; "flotilla sandbox: cannot listen on 127.0.0.1:8080: EADDRINUSE"',
    );
  });

  it('names at most five targets and counts the rest', () => {
    const refusals = createSandboxRefusals({ note: () => {} });
    for (let i = 1; i <= 7; i += 1) refusals.onNetworkRefused(`h${i}:443`);
    expect(refusals.explain(new AgentRunFailure('error', 'x')).message).toBe(
      'x — the OS sandbox refused 7 connection(s) to h1:443, h2:443, h3:443, h4:443, h5:443 and 2 more (not in sandbox.network.allow)',
    );
  });
});
