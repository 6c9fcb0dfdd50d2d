import { z } from 'zod';
import { CLI_USAGE_FORMATS } from './create-cli-usage-reader.ts';

/**
 * How one agent CLI is run without a terminal. `start` and `resume` are argv templates (the program first);
 * placeholders may stand alone or inside an argument (`--message={prompt}`):
 *
 * - `{prompt}`: the prompt as an argument (or a flag's value); `{promptFile}`: the path of a file holding
 *   it; neither: the prompt goes to stdin.
 * - `{sessionId}`: the session to resume (`resume`), or the id the runtime assigns (`start`, with
 *   `sessionId: { from: 'assigned' }`).
 *
 * `resume: null` means the tool cannot continue a session: a re-prompt starts a new one.
 */
export const CliPresetSchema = z.object({
  start: z.array(z.string()).min(1, 'expected the program and its arguments'),
  resume: z.array(z.string()).min(1, 'expected the program and its arguments').nullable(),
  /**
   * Where the id `resume` needs comes from: `assigned` (we pass ours in `start`), `output` (the first
   * output line matching `pattern`, its first group) or `none`.
   */
  sessionId: z.discriminatedUnion('from', [
    z.object({ from: z.literal('assigned') }),
    z.object({ from: z.literal('output'), pattern: z.string().min(1) }),
    z.object({ from: z.literal('none') }),
  ]),
  /**
   * The model credentials the tool reads (e.g. OPENAI_API_KEY): the only secret-looking variables its
   * environment keeps, besides the config's `passThroughEnv`.
   */
  credentialEnv: z.array(z.string().min(1)).default([]),
  /**
   * The tool can only use a key from `credentialEnv` (it cannot see a saved login): without one the runtime
   * is unavailable. Default false (the tool may log in on its own).
   */
  credentialsRequired: z.boolean().optional(),
  /**
   * How the tool reports cost and tokens on stdout (create-cli-usage-reader.ts); absent: it does not, and
   * the run's usage is unknown.
   */
  usage: z.enum(CLI_USAGE_FORMATS).optional(),
});

export type CliPreset = z.output<typeof CliPresetSchema>;

export const BUILT_IN_PRESET_NAMES = ['claude', 'codex', 'aider', 'gemini', 'opencode'] as const;
export type BuiltInPresetName = (typeof BUILT_IN_PRESET_NAMES)[number];

/** The model keys of tools that talk to several providers (aider, opencode). */
const MODEL_KEYS = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
];

/**
 * Built-in presets, from each tool's documented non-interactive mode. Only the fake agent CLI in the tests
 * runs them here; the README says which flags each relies on.
 */
export const CLI_PRESETS: Readonly<Record<BuiltInPresetName, CliPreset>> = {
  /** Claude Code in print mode; the prompt on stdin; our session id, so a re-prompt can `--resume` it. */
  claude: {
    start: [
      'claude',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--session-id',
      '{sessionId}',
    ],
    resume: [
      'claude',
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--resume',
      '{sessionId}',
    ],
    sessionId: { from: 'assigned' },
    credentialEnv: [
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_AUTH_TOKEN',
      'ANTHROPIC_BASE_URL',
      'CLAUDE_CODE_OAUTH_TOKEN',
    ],
    // Each run has its own CLAUDE_CONFIG_DIR, so a `claude login` is never seen: a key is needed.
    credentialsRequired: true,
    // `--output-format stream-json --verbose` (print mode needs --verbose for it): every message as it
    // comes, each assistant message with its request's model and tokens (the live usage signal), the result
    // object last (the invocation's cost, tokens, turns).
    usage: 'claude-stream-json',
  },
  /** `codex exec` (`-` reads stdin), sandboxed to the worktree; the thread id comes from its JSONL events. */
  codex: {
    start: ['codex', 'exec', '--json', '--sandbox', 'workspace-write', '-'],
    resume: ['codex', 'exec', '--json', '--sandbox', 'workspace-write', 'resume', '{sessionId}', '-'],
    sessionId: { from: 'output', pattern: '"thread_id"\\s*:\\s*"([^"]+)"' },
    credentialEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL'],
    usage: 'codex-jsonl',
  },
  /** aider reads the prompt from a file (no argument-length limit); it has no session to resume. */
  aider: {
    start: [
      'aider',
      '--yes-always',
      '--no-pretty',
      '--no-check-update',
      '--no-show-release-notes',
      '--analytics-disable',
      '--message-file',
      '{promptFile}',
    ],
    resume: null,
    sessionId: { from: 'none' },
    credentialEnv: MODEL_KEYS,
  },
  /** Gemini CLI reads piped stdin as the prompt; `--yolo` approves its tool calls. */
  gemini: {
    start: ['gemini', '--yolo'],
    resume: null,
    sessionId: { from: 'none' },
    credentialEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  },
  /** `opencode run <message>`; its JSON events carry the session id that `--session` continues. */
  opencode: {
    start: ['opencode', 'run', '--format', 'json', '{prompt}'],
    resume: ['opencode', 'run', '--format', 'json', '--session', '{sessionId}', '{prompt}'],
    sessionId: { from: 'output', pattern: '"sessionID"\\s*:\\s*"([^"]+)"' },
    credentialEnv: MODEL_KEYS,
  },
};

export const CLI_PRESET_NAMES: readonly string[] = [...BUILT_IN_PRESET_NAMES, 'custom'];

/**
 * The preset a runtime uses: a built-in by name, or `custom` with the user's templates (validated, so a
 * bad config names the field).
 */
export function resolveCliPreset(name: string, custom?: unknown): CliPreset {
  if (name === 'custom') {
    const parsed = CliPresetSchema.safeParse(custom);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`,
      );
      throw new Error(`invalid custom CLI preset: ${problems.join('; ')}`);
    }
    return parsed.data;
  }
  if (!Object.hasOwn(CLI_PRESETS, name)) {
    throw new Error(`unknown CLI preset "${name}"; expected one of ${CLI_PRESET_NAMES.join(', ')}`);
  }
  return structuredClone(CLI_PRESETS[name as BuiltInPresetName]);
}
