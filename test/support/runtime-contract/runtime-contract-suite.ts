import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentNote,
  type AgentQuestions,
  type EngineEvent,
  isAgentQuestions,
} from '../../../src/domain/index.ts';
import { createConversationBroker } from '../../../src/engine/command-executor/create-conversation-broker.ts';
import { systemClock } from '../../../src/engine/engine-config.ts';
import {
  AgentRunFailure,
  type AgentStartParams,
  type AgentToolName,
  type RuntimeAdapter,
} from '../../../src/engine/runtime-contract/index.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { createTempGitRepo, type TempGitRepo } from '../shared/create-temp-git-repo.ts';

/**
 * What the scripted agent does in one run, in terms every runtime can play: its model (Claude, Codex) or
 * the fake agent CLI runs `shell` with its shell tool in its working directory, says `say`, then answers
 * `output` as the role's structured result (`invalid`: output that breaks the schema, every time).
 */
export interface AgentScript {
  shell?: string;
  say?: string;
  output: Record<string, unknown>;
  /** The agent never answers after `shell` (its model stalls; the CLI agent's command never ends). */
  hang?: boolean;
  /**
   * After `shell`, the agent stops to ask a human `questions` (in its runtime's own way) instead of
   * answering. Resumed with answers containing `answer`, it runs `thenShell` and answers `output`. The
   * harness makes the resumed run fail when `answer` is not in what the agent is given.
   */
  asks?: { questions: string[]; answer: string; thenShell: string };
  /**
   * Before `shell`, the agent calls Flotilla's internal tools with these inputs, in its runtime's way: the
   * in-process MCP tools (`mcp__flotilla__<tool>`), or `agentCommandLine(notes)` with its shell tool.
   */
  notes?: AgentToolCall[];
  /** Questions between running agents (issue #28 §3), before `shell`: see AgentConversationScript. */
  converses?: AgentConversationScript;
}

/**
 * What an agent does with other agents, in this order: it waits until a question reaches it (`waits`:
 * `flotilla agent listen`, or — for a runtime that tells its agent in its session — until the suite creates
 * `readyFile`, once the question was delivered); it `asks` another running agent and writes what it got
 * into `replyFile` (the harness makes the run fail unless the reply contains `expect`); it `answers` the
 * question it waited for; or it `holds` the question unanswered until it is withdrawn (`flotilla agent
 * check-messages` no longer lists it) or the suite creates `releaseFile`.
 */
export interface AgentConversationScript {
  waits?: { readyFile: string };
  asks?: { to: string; question: string; timeoutSeconds: number; expect: string; replyFile: string };
  answers?: string;
  holds?: { releaseFile: string };
}

const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
/** A short pause in a shell loop (no `sleep N; cmd`, which the Claude CLI refuses). */
const PAUSE = 'timeout 0.2 tail -f /dev/null';

/** The conversation script as one shell line of `flotilla agent` commands (agents that run commands). */
export function conversationCommandLine(script: AgentConversationScript): string {
  const parts: string[] = [];
  if (script.asks !== undefined) {
    const { to, question, timeoutSeconds, replyFile } = script.asks;
    parts.push(
      `flotilla agent ask --to ${shellQuote(to)} --question ${shellQuote(question)} --timeout ${timeoutSeconds} > ${shellQuote(replyFile)}`,
    );
  }
  if (script.answers !== undefined)
    parts.push(`flotilla agent answer --id "$id" --text ${shellQuote(script.answers)}`);
  if (script.holds !== undefined)
    parts.push(
      `flotilla agent listen --timeout 60 > /dev/null; while flotilla agent check-messages | grep -q 'conversation'; do ${PAUSE}; done`,
    );
  if (script.waits === undefined) return parts.join('; ');
  // The id read from the question through a pipe (gemini refuses `$(…)` in its shell tool).
  return (
    `flotilla agent listen --timeout 60 | sed -n 's/.*"conversationId":"\\([^"]*\\)".*/\\1/p' | ` +
    `{ read -r id; ${parts.join('; ')}; }`
  );
}

/** The conversation script's waits as shell loops on the suite's files (runtimes told in their session). */
export function waitForFileLine(file: string): string {
  return `until [ -e ${shellQuote(file)} ]; do ${PAUSE}; done`;
}

/** One call of an internal tool (issue #28 §2) as a script makes it. */
export interface AgentToolCall {
  tool: AgentToolName;
  input: Record<string, string>;
}

const VERB_OF: Record<AgentToolName, string> = {
  store_memory: 'store-memory',
  record_decision: 'record-decision',
  log_question: 'log-question',
  update_summary: 'update-summary',
};

/** The calls as one shell line of `flotilla agent <verb>` commands (each runs, whatever the one before did). */
export function agentCommandLine(calls: readonly AgentToolCall[]): string {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  return calls
    .map(
      ({ tool, input }) =>
        `flotilla agent ${VERB_OF[tool]} ${Object.entries(input)
          .map(([field, value]) => `--${field} ${quote(value)}`)
          .join(' ')}`,
    )
    .join('; ');
}

/** What a runtime cannot do, said out loud rather than skipped (see src/runtimes/README.md). */
export interface RuntimeCapabilities {
  /** Reports cost/tokens through `usage()`; `false`: the runtime cannot know and reports null. */
  reportsUsage: boolean;
  /**
   * Reports the run's usage while it runs (`onUsage`, after each model request or turn), which the engine's
   * budgets stop a run on; `false`: caps are held only before and after its runs.
   */
  reportsLiveUsage: boolean;
  /**
   * Its agents can stop with questions for a human, kept until a resume with the answers or
   * `discardSession`; `false`: the runtime has no `discardSession` and never returns questions.
   */
  asksQuestions: boolean;
  /**
   * Its agents can call Flotilla's internal tools (store_memory, record_decision, log_question,
   * update_summary) and the handle's `onNote` hands over the valid calls; `false`: it has no `onNote`.
   */
  recordsNotes: boolean;
  /**
   * Its agents can ask other running agents and answer them (ask_agent, answer_agent; issue #28 §3): the
   * handle has `conversations`; `false`: it has none.
   */
  asksAgents: boolean;
}

/**
 * Every way a read-only run (modes investigate, refine) might write its worktree, in one shell line whose
 * errors go to its output (the transcript); it always succeeds, so the agent goes on to its report.
 */
export const READ_ONLY_WRITE_ATTEMPTS = [
  "printf 'x\\n' > src/planted.txt",
  "printf 'x\\n' >> src/keep.txt",
  'rm src/edit-me.txt',
  'mv src/rename-me.txt src/renamed.txt',
  'mkdir made',
  'git commit --allow-empty -qm planted',
]
  .map((attempt) => `{ ${attempt}; } 2>&1`)
  .join('; ')
  .concat('; true');

/** The reports the read-only modes return in the contract case. */
export const MODE_REPORTS = {
  investigate: {
    mode: 'investigate',
    summary: 'The greeting is missing.',
    rootCause: 'src/keep.txt never greets.',
    evidence: ['cat src/keep.txt prints keep'],
    files: ['src/keep.txt'],
    fixes: [
      {
        tempID: 'fix',
        title: 'Greet in keep.txt',
        body: 'Objective: greet.',
        labels: ['task:implement'],
        blockedBy: [],
      },
    ],
  },
  refine: {
    mode: 'refine',
    summary: 'Made precise.',
    title: 'Greet the user by name',
    body: 'Print hello, <name>.',
    acceptanceCriteria: ['prints hello, Ada for Ada'],
    files: ['src/keep.txt'],
    size: 'low',
    labels: ['priority:high'],
  },
} as const;

export interface RuntimeContractHarness {
  /**
   * A runtime on `repo` whose agent plays `script` for every run. Its agent environment starts from one that
   * holds `CONTRACT_PLANTED_SECRET` in `GITHUB_TOKEN`; transcripts (under `logsDir`) redact the value of
   * `CONTRACT_TOKEN` (`CONTRACT_SECRET_VALUE`).
   */
  runtimeFor(
    script: AgentScript,
    options?: {
      maxAgentDuration?: number;
      /**
       * The runtime as it runs the read-only modes (issue #29): in the OS sandbox. Claude's read-only bash
       * validator then allows every command, so what refuses a write is the sandbox.
       */
      readOnlyModes?: boolean;
    },
  ): Promise<RuntimeAdapter & { runtime?: string }>;
  cleanup(): Promise<void>;
}

export type RuntimeContractFactory = (context: {
  repo: TempGitRepo;
  logsDir: string;
}) => Promise<RuntimeContractHarness>;

export const CONTRACT_PLANTED_SECRET = 'ghp_contractPlantedTrackerToken0001';
export const CONTRACT_SECRET_VALUE = 'contract-secret-value-4711-abcdef';

/** The repository every runtime under test starts from. */
export const CONTRACT_REPO_FILES: Readonly<Record<string, string>> = {
  'README.md': '# Contract\n',
  // Flotilla's state (a runtime's per-run directories) is not part of the repository's content.
  '.gitignore': '.flotilla/\n',
  'docs/specs/feature.md': '---\nstatus: approved\n---\n# Feature\nThe app greets.\n',
  'src/keep.txt': 'keep\n',
  'src/edit-me.txt': 'one\ntwo\n',
  'src/remove-me.txt': 'obsolete\n',
  'src/rename-me.txt': 'moving\nacross\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
};

const PLAN = {
  role: 'planner',
  create: [{ tempID: 'a', title: 'Greet', body: 'Objective: greet.', labels: [], blockedBy: [] }],
  close: [],
  update: [],
};
const REVIEW = {
  role: 'reviewer',
  review: { verdict: 'approve', summary: 'Fine.', comments: [] },
};
const BLOCKED = { role: 'implementor', outcome: 'blocked', summary: 'Nothing to do.' };
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'Changed the files.' };

/** Every kind of change a patch must carry exactly: edit, add, delete, rename, mode, binary. */
const CHANGE_FILES = [
  "printf 'one\\nTWO\\nthree\\n' > src/edit-me.txt",
  "printf 'new\\n' > src/added.txt",
  'rm src/remove-me.txt',
  // Plain mv: codex's sandbox keeps .git read-only, so `git mv` cannot run there; git finds the rename.
  'mv src/rename-me.txt src/renamed.txt',
  'chmod +x src/keep.txt',
  "printf '\\000\\001\\002\\377binary' > src/blob.bin",
].join(' && ');

/** The engine's session ids are UUIDs (the Claude SDK takes them as its own). */
const sessionID = (_label: string) => randomUUID();

const implementor = (label: string): AgentStartParams => ({
  role: 'implementor',
  sessionID: sessionID(label),
  prompt: '## Work Item #7 — Greet\n\nObjective: greet.\n',
  workItemID: '7',
  branchName: 'flotilla/7',
});

/** A script that edits a file, asks, and after the answer edits another and completes. */
const ASKING: AgentScript = {
  shell: "printf 'half\\n' > src/half.txt",
  asks: {
    questions: ['Which greeting: hello or hi?', 'Lower case?'],
    answer: 'Say hello, lower case (contract-answer-0815).',
    thenShell: "printf 'hello\\n' > src/greeting.txt",
  },
  output: COMPLETED,
};

/** A script that records a note of each kind, and one the tools refuse, then changes a file and completes. */
const NOTE_CALLS: AgentToolCall[] = [
  { tool: 'update_summary', input: { text: 'Writing the noted file' } },
  { tool: 'store_memory', input: { topic: 'contract memory', text: "Tests run with 'npm test'." } },
  { tool: 'record_decision', input: { decision: 'Plain text file', why: 'Nothing else reads it' } },
  { tool: 'log_question', input: { text: 'Should the file be Markdown?' } },
  // Refused: a topic over its 80-character bound.
  { tool: 'store_memory', input: { topic: 'x'.repeat(81), text: 'never stored' } },
];
const NOTING: AgentScript = {
  notes: NOTE_CALLS,
  shell: "printf 'noted\\n' > src/noted.txt",
  output: COMPLETED,
};
const EXPECTED_NOTES: AgentNote[] = [
  { kind: 'summary', text: 'Writing the noted file' },
  { kind: 'memory', topic: 'contract memory', text: "Tests run with 'npm test'." },
  { kind: 'decision', decision: 'Plain text file', why: 'Nothing else reads it' },
  { kind: 'question', text: 'Should the file be Markdown?' },
];
const byKind = (notes: readonly AgentNote[]) => [...notes].sort((a, b) => a.kind.localeCompare(b.kind));

async function questionsOf(promise: Promise<unknown>): Promise<AgentQuestions> {
  const outcome = await promise;
  if (!isAgentQuestions(outcome)) throw new Error(`expected questions, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function failureOf(promise: Promise<unknown>): Promise<AgentRunFailure> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentRunFailure);
  return error as AgentRunFailure;
}

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, input, encoding: 'utf8' });
}

/** Pids running as `marker` (`exec -a`: the hanging command a cancel or timeout must end, not its wrappers). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] === marker;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The runtime contract (src/runtimes/README.md) every agent runtime passes with the same cases: results
 * validated and returned per role, invalid output failing clearly, cancel and timeout, usage, redacted
 * transcripts, a scrubbed agent environment, no worktree left behind, exact patches, and questions kept,
 * resumed with the answers or discarded.
 */
export function describeRuntimeContract(
  name: string,
  capabilities: RuntimeCapabilities,
  factory: RuntimeContractFactory,
): void {
  describe(`runtime contract: ${name}`, () => {
    let repo: TempGitRepo;
    let logsDir: string;
    let harness: RuntimeContractHarness;
    let baseCommit: string;

    beforeEach(async () => {
      repo = await createTempGitRepo();
      await repo.commit('base', CONTRACT_REPO_FILES);
      await chmod(join(repo.root, 'bin/run.sh'), 0o755);
      git(repo.root, ['add', 'bin/run.sh']);
      git(repo.root, ['commit', '-qm', 'executable']);
      logsDir = await mkdtemp(join(tmpdir(), 'runtime-contract-logs-'));
      // The harness may commit what its runtime needs (agent definitions) first.
      harness = await factory({ repo, logsDir });
      baseCommit = git(repo.root, ['rev-parse', 'HEAD']).trim();
    });

    afterEach(async () => {
      await harness.cleanup();
      await repo.cleanup();
      await rm(logsDir, { recursive: true, force: true });
    });

    /** Nothing of a finished run is left in the repository: no worktree, no scratch branch. */
    const expectNoWorktreeLeft = () => {
      expect(git(repo.root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
      expect(git(repo.root, ['branch', '--list', 'agent/*'])).toBe('');
      expect(existsSync(join(repo.root, '.worktrees', 'agent'))).toBe(false);
      expect(git(repo.root, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    };

    it('returns each role its validated result (planner, implementor, reviewer)', async () => {
      const planner = await harness.runtimeFor({ output: PLAN });
      const plan = await (
        await planner.startAgent({
          role: 'planner',
          sessionID: sessionID('planner'),
          prompt: 'Plan docs/specs/feature.md.',
          specPaths: ['docs/specs/feature.md'],
          specSHAs: {
            'docs/specs/feature.md': git(repo.root, ['rev-parse', 'HEAD:docs/specs/feature.md']).trim(),
          },
        })
      ).result;
      expect(plan).toMatchObject(PLAN);

      const reviewer = await harness.runtimeFor({ output: REVIEW });
      const review = await (
        await reviewer.startAgent({
          role: 'reviewer',
          sessionID: sessionID('reviewer'),
          prompt: 'Review revision 3.',
          workItemID: '7',
          revisionID: '3',
        })
      ).result;
      expect(review).toMatchObject(REVIEW);

      const blocked = await (
        await (await harness.runtimeFor({ output: BLOCKED })).startAgent(implementor('blocked'))
      ).result;
      expect(blocked).toEqual({ ...BLOCKED, patch: null });
      expectNoWorktreeLeft();
    }, 180_000);

    it('output that breaks the role schema fails the run with reason error, naming the field', async () => {
      const runtime = await harness.runtimeFor({
        output: { role: 'reviewer', review: { verdict: 'maybe', summary: 'Unsure.', comments: [] } },
      });
      const handle = await runtime.startAgent({
        role: 'reviewer',
        sessionID: sessionID('invalid'),
        prompt: 'Review revision 3.',
        workItemID: '7',
        revisionID: '3',
      });
      const failure = await failureOf(handle.result);
      expect(failure.reason).toBe('error');
      expect(failure.message).toMatch(/verdict|structured output/i);
      expectNoWorktreeLeft();
    }, 180_000);

    it('the patch carries every change exactly (edit, add, delete, rename, mode, binary)', async () => {
      const runtime = await harness.runtimeFor({ shell: CHANGE_FILES, output: COMPLETED });
      const result = await (await runtime.startAgent(implementor('patch'))).result;
      expect(result.role === 'implementor' && result.outcome).toBe('completed');
      const patch = result.role === 'implementor' ? (result.patch ?? '') : '';

      // The same commands run by hand at the base commit give the tree the patch must rebuild.
      const expected = await mkdtemp(join(tmpdir(), 'runtime-contract-expected-'));
      try {
        git(repo.root, ['worktree', 'add', '-q', '--detach', expected, baseCommit]);
        execFileSync('sh', ['-c', CHANGE_FILES], { cwd: expected });
        git(expected, ['add', '-A']);
        const expectedTree = git(expected, ['write-tree']).trim();
        git(expected, ['reset', '-q', '--hard', baseCommit]);
        git(expected, ['apply', '--index', '--binary', '-'], patch);
        expect(git(expected, ['write-tree']).trim()).toBe(expectedTree);
      } finally {
        git(repo.root, ['worktree', 'remove', '--force', expected]);
        await rm(expected, { recursive: true, force: true });
      }
      expect(patch).toContain('rename from src/rename-me.txt');
      expect(patch).toContain('GIT binary patch');
      expect(patch).toContain('deleted file mode 100644');
      expect(patch).toContain('new mode 100755');
      expectNoWorktreeLeft();
    }, 180_000);

    it('the agent environment holds no tracker credential', async () => {
      const runtime = await harness.runtimeFor({ shell: 'env > agent-env.txt', output: COMPLETED });
      const result = await (await runtime.startAgent(implementor('env'))).result;
      const patch = result.role === 'implementor' ? (result.patch ?? '') : '';
      // The probe ran (PATH is there) and saw no planted credential.
      expect(patch).toMatch(/^\+PATH=/m);
      expect(patch).not.toContain(CONTRACT_PLANTED_SECRET);
      expect(patch).not.toMatch(/^\+GITHUB_TOKEN=/m);
      expectNoWorktreeLeft();
    }, 180_000);

    for (const mode of ['investigate', 'refine'] as const) {
      it(`a ${mode} run cannot write its worktree (the OS refuses every write) and returns its report`, async () => {
        const report = MODE_REPORTS[mode];
        const runtime = await harness.runtimeFor(
          { shell: READ_ONLY_WRITE_ATTEMPTS, output: report },
          { readOnlyModes: true },
        );
        const handle = await runtime.startAgent({ ...implementor(mode), mode } as AgentStartParams);
        // A write that got through would fail the run: the worktree is checked unchanged before the report.
        const result = await handle.result;
        expect(result).toMatchObject({ role: 'implementor', outcome: 'completed', patch: null, report });
        const transcript = await readFile(handle.logFilePath ?? '', 'utf8');
        expect(transcript).toContain('Read-only file system');
        expectNoWorktreeLeft();
      }, 180_000);
    }

    it('writes a transcript with secrets redacted', async () => {
      const runtime = await harness.runtimeFor({
        say: `The token is ${CONTRACT_SECRET_VALUE}, noted.`,
        output: BLOCKED,
      });
      const handle = await runtime.startAgent(implementor('transcript'));
      await handle.result;
      expect(handle.logFilePath).not.toBeNull();
      const transcript = await readFile(handle.logFilePath!, 'utf8');
      expect(transcript).toContain('The token is [REDACTED:CONTRACT_TOKEN], noted.');
      expect(transcript).not.toContain(CONTRACT_SECRET_VALUE);
    }, 180_000);

    it(capabilities.reportsUsage
      ? 'reports usage (tokens, turns) once the result settles'
      : 'reports usage as null: this runtime cannot know it (declared capability)', async () => {
      const runtime = await harness.runtimeFor({ output: BLOCKED });
      const handle = await runtime.startAgent(implementor('usage'));
      await handle.result;
      const usage = handle.usage?.() ?? null;
      if (capabilities.reportsUsage) {
        expect(usage?.turns).toBeGreaterThan(0);
        expect(usage?.inputTokens).toBeGreaterThan(0);
      } else {
        expect(usage).toBeNull();
      }
    }, 180_000);

    it(capabilities.reportsLiveUsage
      ? 'reports live usage through onUsage while the run lasts'
      : 'reports no live usage: budgets hold only at its runs’ start and end (declared capability)', async () => {
      const runtime = await harness.runtimeFor({ shell: 'echo working', output: BLOCKED });
      const handle = await runtime.startAgent(implementor('live-usage'));
      const reports: number[] = [];
      handle.onUsage?.((report) => reports.push(report.usage.inputTokens ?? 0));
      await handle.result;
      if (capabilities.reportsLiveUsage) {
        expect(reports.length).toBeGreaterThan(0);
        expect(reports.at(-1)).toBeGreaterThan(0);
      } else {
        expect(reports).toEqual([]);
      }
    }, 180_000);

    it('cancel ends the run as cancelled, ends what the agent started, and removes the worktree', async () => {
      const marker = `contract-cancel-${randomUUID()}`;
      const runtime = await harness.runtimeFor({
        shell: `exec -a ${marker} sleep 300`,
        hang: true,
        output: BLOCKED,
      });
      const params = implementor('cancel');
      const handle = await runtime.startAgent(params);
      await waitFor(() => processesWith(marker).length > 0, 'the agent to start its command', 60_000);
      runtime.cancelAgent(params.sessionID);
      runtime.cancelAgent('no-such-session');
      const failure = await failureOf(handle.result);
      expect(failure.reason).toBe('cancelled');
      await waitFor(() => processesWith(marker).length === 0, 'the command to end');
      expectNoWorktreeLeft();
    }, 180_000);

    if (capabilities.asksQuestions) {
      it('questions keep the worktree; the resume with the answers continues and completes with one patch', async () => {
        const runtime = await harness.runtimeFor(ASKING);
        const asked = await questionsOf((await runtime.startAgent(implementor('asking'))).result);
        expect(asked.questions).toEqual(ASKING.asks?.questions);
        expect(asked.askedBy).toBe('implementor');
        if (runtime.runtime !== undefined) expect(asked.session.runtime).toBe(runtime.runtime);
        const worktree = asked.session.worktree?.path ?? '';
        expect(readFileSync(join(worktree, 'src/half.txt'), 'utf8')).toBe('half\n');

        const resumed = await runtime.startAgent({
          ...implementor('resumed'),
          resume: {
            session: asked.session,
            questions: asked.questions,
            answers: ASKING.asks?.answer ?? '',
            sessionNumber: 2,
          },
        });
        const result = await resumed.result;
        if (result.role !== 'implementor')
          throw new Error(`expected a result, got ${JSON.stringify(result)}`);
        expect(result.outcome).toBe('completed');
        // Both sessions' work, against the asking session's base commit.
        expect(result.patch).toContain('+++ b/src/half.txt');
        expect(result.patch).toContain('+++ b/src/greeting.txt');
        expectNoWorktreeLeft();
      }, 180_000);

      it('discardSession removes a kept session: its worktree goes and it can no longer be resumed', async () => {
        const runtime = await harness.runtimeFor(ASKING);
        const asked = await questionsOf((await runtime.startAgent(implementor('discarded'))).result);
        expect(existsSync(asked.session.worktree?.path ?? '')).toBe(true);
        await runtime.discardSession?.(asked.session);
        expectNoWorktreeLeft();
        const resume = {
          session: asked.session,
          questions: asked.questions,
          answers: 'Too late.',
          sessionNumber: 2,
        };
        await expect(runtime.startAgent({ ...implementor('too-late'), resume })).rejects.toThrow(/gone/);
        expectNoWorktreeLeft();
      }, 180_000);
    } else {
      it('cannot ask questions: it keeps no session to discard (declared capability)', async () => {
        const runtime = await harness.runtimeFor({ output: BLOCKED });
        expect(runtime.discardSession).toBeUndefined();
      });
    }

    if (capabilities.recordsNotes) {
      it("records notes through Flotilla's tools: each valid call reaches onNote, a refused one does not", async () => {
        const runtime = await harness.runtimeFor(NOTING);
        const handle = await runtime.startAgent(implementor('noting'));
        const notes: AgentNote[] = [];
        // Subscribed once the run is under way: notes recorded before are replayed.
        handle.onNote?.((note) => notes.push(note));
        const result = await handle.result;
        expect(result).toMatchObject(COMPLETED);
        expect(byKind(notes)).toEqual(byKind(EXPECTED_NOTES));
        expectNoWorktreeLeft();
      }, 180_000);
    } else {
      it("cannot call Flotilla's tools: its handles have no onNote (declared capability)", async () => {
        const handle = await (await harness.runtimeFor({ output: BLOCKED })).startAgent(
          implementor('no-notes'),
        );
        await handle.result;
        expect(handle.onNote).toBeUndefined();
      }, 180_000);
    }

    if (capabilities.asksAgents) {
      /** Two implementor runs of this runtime (items 7 and 8) joined to the engine's conversation broker. */
      const converse = async (
        asker: AgentScript,
        asked: AgentScript,
        onDelivered: () => void,
        onAskerDone: () => void = () => {},
      ) => {
        const events: EngineEvent[] = [];
        const broker = createConversationBroker({
          emit: (event) => events.push(event),
          clock: systemClock,
          logger: silentLogger,
        });
        const askedRuntime = await harness.runtimeFor(asked);
        const askerRuntime = await harness.runtimeFor(asker);
        const askedParams = { ...implementor('asked'), workItemID: '8', branchName: 'flotilla/8' };
        const askerParams = implementor('asker');
        const askedHandle = await askedRuntime.startAgent(askedParams);
        const port = askedHandle.conversations;
        if (port === undefined) throw new Error('the handle has no conversations');
        broker.join(
          { sessionID: askedParams.sessionID, role: 'implementor', workItemID: '8' },
          {
            ...port,
            deliverQuestion(question) {
              port.deliverQuestion(question);
              onDelivered();
            },
          },
        );
        const askerHandle = await askerRuntime.startAgent(askerParams);
        if (askerHandle.conversations === undefined) throw new Error('the handle has no conversations');
        broker.join(
          { sessionID: askerParams.sessionID, role: 'implementor', workItemID: '7' },
          askerHandle.conversations,
        );
        const finished = (handle: typeof askerHandle, leaving: string) =>
          handle.result.finally(() => broker.leave(leaving));
        const [askerResult, askedResult] = await Promise.all([
          finished(askerHandle, askerParams.sessionID).finally(onAskerDone),
          finished(askedHandle, askedParams.sessionID),
        ]);
        return { askerResult, askedResult, events };
      };
      const patchOf = (result: unknown) => {
        const outcome = result as { role?: string; patch?: string | null };
        if (outcome.role !== 'implementor')
          throw new Error(`expected a result, got ${JSON.stringify(result)}`);
        return outcome.patch ?? '';
      };

      it('asks another running agent and gets its answer while that agent keeps working', async () => {
        const readyFile = join(logsDir, `ready-${randomUUID()}`);
        const asker: AgentScript = {
          converses: {
            asks: {
              to: '8',
              question: 'Which port?',
              timeoutSeconds: 90,
              expect: 'Port 8080.',
              replyFile: 'src/reply.txt',
            },
          },
          output: COMPLETED,
        };
        const asked: AgentScript = {
          converses: { waits: { readyFile }, answers: 'Port 8080.' },
          // It goes on working after it answered.
          shell: "printf 'after\\n' > src/after.txt",
          output: COMPLETED,
        };
        const { askerResult, askedResult, events } = await converse(
          asker,
          asked,
          () => void writeFile(readyFile, ''),
        );
        expect(patchOf(askerResult)).toMatch(/\+\+\+ b\/src\/reply\.txt[\s\S]*Port 8080\./);
        expect(patchOf(askedResult)).toContain('+++ b/src/after.txt');
        expect(events).toEqual([
          expect.objectContaining({
            type: 'conversationCreated',
            conversation: expect.objectContaining({ status: 'open', question: 'Which port?' }),
          }),
          expect.objectContaining({ type: 'conversationAnswered', status: 'answered', answer: 'Port 8080.' }),
        ]);
        expectNoWorktreeLeft();
      }, 240_000);

      it('a timeout answers the asker, and the asked agent goes on', async () => {
        const releaseFile = join(logsDir, `release-${randomUUID()}`);
        const asker: AgentScript = {
          converses: {
            asks: {
              to: '8',
              question: 'Anyone?',
              timeoutSeconds: 2,
              expect: 'No answer (timeout',
              replyFile: 'src/reply.txt',
            },
          },
          output: COMPLETED,
        };
        const asked: AgentScript = {
          converses: { holds: { releaseFile } },
          shell: "printf 'x\\n' > src/x.txt",
          output: COMPLETED,
        };
        const { askerResult, askedResult, events } = await converse(
          asker,
          asked,
          () => {},
          () => void writeFile(releaseFile, ''),
        );
        expect(patchOf(askerResult)).toMatch(/No answer \(timeout/);
        expect(patchOf(askedResult)).toContain('+++ b/src/x.txt');
        expect(events.at(-1)).toMatchObject({ type: 'conversationAnswered', status: 'timeout' });
        expectNoWorktreeLeft();
      }, 240_000);

      it('two agents asking each other never deadlock: the ask back is refused at once, then answered', async () => {
        const readyFile = join(logsDir, `ready-${randomUUID()}`);
        const asker: AgentScript = {
          converses: {
            asks: {
              to: '8',
              question: 'Which port?',
              timeoutSeconds: 90,
              expect: 'Port 8080.',
              replyFile: 'src/reply.txt',
            },
          },
          output: COMPLETED,
        };
        const asked: AgentScript = {
          converses: {
            waits: { readyFile },
            asks: {
              to: '7',
              question: 'And yours?',
              timeoutSeconds: 90,
              expect: 'waiting for your answer',
              replyFile: 'src/back.txt',
            },
            answers: 'Port 8080.',
          },
          output: COMPLETED,
        };
        const { askerResult, askedResult, events } = await converse(
          asker,
          asked,
          () => void writeFile(readyFile, ''),
        );
        expect(patchOf(askerResult)).toContain('Port 8080.');
        expect(patchOf(askedResult)).toMatch(/\+\+\+ b\/src\/back\.txt[\s\S]*waiting for your answer/);
        expect(
          events.map((event) =>
            event.type === 'conversationCreated'
              ? event.conversation.status
              : event.type === 'conversationAnswered'
                ? event.status
                : '',
          ),
        ).toEqual(['open', 'refused', 'answered']);
        expectNoWorktreeLeft();
      }, 240_000);
    } else {
      it('cannot ask other agents: its handles have no conversations (declared capability)', async () => {
        const handle = await (await harness.runtimeFor({ output: BLOCKED })).startAgent(
          implementor('no-asks'),
        );
        await handle.result;
        expect(handle.conversations).toBeUndefined();
      }, 180_000);
    }

    it('maxAgentDuration ends a run that takes too long as timeout', async () => {
      const marker = `contract-timeout-${randomUUID()}`;
      const runtime = await harness.runtimeFor(
        { shell: `exec -a ${marker} sleep 300`, hang: true, output: BLOCKED },
        { maxAgentDuration: 3 },
      );
      const handle = await runtime.startAgent(implementor('timeout'));
      const failure = await failureOf(handle.result);
      expect(failure.reason).toBe('timeout');
      expect(failure.message).toContain('maxAgentDuration (3s)');
      await waitFor(() => processesWith(marker).length === 0, 'the command to end');
      expectNoWorktreeLeft();
    }, 180_000);

    it("a mode's timeout (limits.<mode>.timeout, issue #29) replaces maxAgentDuration", async () => {
      const marker = `contract-mode-timeout-${randomUUID()}`;
      const runtime = await harness.runtimeFor(
        { shell: `exec -a ${marker} sleep 300`, hang: true, output: BLOCKED },
        { maxAgentDuration: 600 },
      );
      const handle = await runtime.startAgent({
        ...implementor('mode-timeout'),
        limits: { defaultMaxTurns: 200, timeoutSeconds: 3 },
      });
      const failure = await failureOf(handle.result);
      expect(failure.reason).toBe('timeout');
      expect(failure.message).toContain('(3s)');
      await waitFor(() => processesWith(marker).length === 0, 'the command to end');
      expectNoWorktreeLeft();
    }, 180_000);
  });
}
