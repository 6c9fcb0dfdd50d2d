import { z } from 'zod';
import { bashValidatorRulesOverridesSchema } from '../guards/bash-validator/bash-validator-rules-schema.ts';
import { buildProviderConfigShape, PROVIDER_REGISTRY } from '../providers/registry.ts';
import { RUNTIME_REGISTRY, type RuntimeObjectSettings } from '../runtimes/registry.ts';

// Every leaf carries its expectation as the zod error ("an integer ≥ 1"): formatConfigIssues turns it into
// `<path>: expected <expectation>, got <value>`, so messages stay uniform without a per-code lookup table.

function integerAtLeast(min: number, unit = '') {
  const expected = `an integer ≥ ${min}${unit}`;
  return z.number({ error: expected }).int({ error: expected }).min(min, { error: expected });
}

const seconds = () => integerAtLeast(1, ' (seconds)');
const absolutePath = () =>
  z
    .string({ error: 'an absolute path' })
    .refine((path) => path.startsWith('/'), { error: 'an absolute path' });
const nonEmptyString = (what: string) =>
  z.string({ error: `a non-empty string (${what})` }).min(1, { error: `a non-empty string (${what})` });
const object = <T extends z.core.$ZodLooseShape>(shape: T) =>
  // Strict: a typo such as `maxConcurentAgents` must be an error, never silently ignored.
  z.strictObject(shape, { error: 'an object' });

/** `'a', 'b' or 'c'`: the names a field accepts, for its error. */
const quoteList = (names: readonly string[]) => {
  const quoted = names.map((name) => `'${name}'`);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
};
const namesOf = (runtimes: readonly { name: string }[]) =>
  runtimes.map((entry) => entry.name) as [string, ...string[]];

/** The runtimes `runtimes.<role>` names by name alone (src/runtimes/registry.ts): `"codex"`. */
export const AGENT_RUNTIMES: readonly string[] = namesOf(
  RUNTIME_REGISTRY.filter((entry) => entry.config.kind === 'name'),
);
export type AgentRuntimeKind = string;
/** The runtime a role runs on when the config names none: the registry's first. */
const DEFAULT_RUNTIME = RUNTIME_REGISTRY[0].name;
/** The runtimes that can play against a scripted model server (`scriptedRuntime`). */
const SCRIPTED_PLAYERS = namesOf(RUNTIME_REGISTRY.filter((entry) => entry.createScripted !== undefined));
/** The scripted stand-ins: a role on one of them needs `scriptedScenario`. */
const SCRIPTED_RUNTIMES = namesOf(RUNTIME_REGISTRY.filter((entry) => entry.scripted === true));
/** The runtimes named as `{"runtime": "<name>", …}`, each with its own schema (src/runtimes/registry.ts). */
const OBJECT_RUNTIMES = RUNTIME_REGISTRY.flatMap((entry) =>
  entry.config.kind === 'object' ? [{ name: entry.name, ...entry.config }] : [],
);
export type CliRuntimeSettings = RuntimeObjectSettings;

const RUNTIME_EXPECTED = `${AGENT_RUNTIMES.map((name) => `'${name}'`).join(', ')} or ${OBJECT_RUNTIMES.map((entry) => entry.expected).join(' or ')}`;
const runtime = z
  .union(
    // Typed by hand: a list of schemas spread from the registry loses each member's output type.
    [
      z.string().pipe(z.enum(AGENT_RUNTIMES as [string, ...string[]])),
      ...OBJECT_RUNTIMES.map((entry) => entry.schema),
    ] as unknown as [z.ZodType<string>, z.ZodType<RuntimeObjectSettings>],
    {
      // An object was meant as a runtime of the object form (the one its `runtime` names, else the first):
      // name its field instead of listing every form.
      error: (issue) => {
        if (typeof issue.input !== 'object' || issue.input === null || issue.code !== 'invalid_union')
          return RUNTIME_EXPECTED;
        const named = (issue.input as { runtime?: unknown }).runtime;
        const index = Math.max(
          0,
          OBJECT_RUNTIMES.findIndex((entry) => entry.name === named),
        );
        const objectIssue = issue.errors[1 + index]?.[0];
        if (objectIssue === undefined) return RUNTIME_EXPECTED;
        return objectIssue.path.length === 0
          ? objectIssue.message
          : `${objectIssue.path.join('.')}: ${objectIssue.message}`;
      },
    },
  )
  .default(DEFAULT_RUNTIME);
const model = nonEmptyString('a model alias or id').optional();
/**
 * `models.implementor` (issue #29): one model, or a model per `complexity:*` label value
 * (`{ "trivial": "haiku", "simple": "sonnet", "complex": "opus" }`); an item without a listed complexity
 * uses the agent definition's model.
 */
const implementorModel = z
  .union(
    [
      nonEmptyString('a model alias or id'),
      z.record(z.string().min(1), nonEmptyString('a model alias or id')),
    ],
    {
      error:
        'a model alias or id, or an object: complexity label value → model (e.g. { "trivial": "haiku" })',
    },
  )
  .optional();
/** One mode's limits (issue #29): the most turns and seconds its runs may take. */
const modeLimits = object({
  maxTurns: integerAtLeast(1).optional(),
  timeout: seconds().optional(),
}).prefault({});
/** An agent output's approval: applied at once (`auto`, today's behaviour) or a proposal (`required`). */
const approvalMode = z.enum(['auto', 'required'], { error: "'auto' or 'required'" }).default('auto');

/** The runtimes config `accounts` may name (their descriptors take accounts). */
const ACCOUNT_RUNTIMES = namesOf(RUNTIME_REGISTRY.filter((entry) => entry.takesAccounts === true));
const ACCOUNT_REFERENCE_EXPECTED =
  'a reference to an environment variable such as "$WORK_ANTHROPIC_KEY" — never the secret itself';
/**
 * A credential profile (issue #14, docs/runtime-spec.md §Accounts and failover): `env` maps what the agent gets to variables of flotilla's own
 * environment (`{ "ANTHROPIC_API_KEY": "$WORK_ANTHROPIC_KEY" }`), so the file never holds a secret.
 */
const account = object({
  name: z
    .string({ error: 'a name of letters, digits, "-" or "_"' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'expected a name of letters, digits, "-" or "_"' }),
  runtime: z.enum(ACCOUNT_RUNTIMES, {
    error: `${quoteList(ACCOUNT_RUNTIMES)} (accounts are for the Claude runtime so far)`,
  }),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name' }),
      z
        .string({ error: ACCOUNT_REFERENCE_EXPECTED })
        .regex(/^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$/, {
          // A regex failure is reported as written (no "expected" added), unlike a wrong type.
          error: `expected ${ACCOUNT_REFERENCE_EXPECTED}`,
        }),
      { error: 'an object: the agent\'s variable → "$YOUR_VARIABLE"' },
    )
    .refine((env) => Object.keys(env).length > 0, { error: 'at least one variable' }),
});
export type AccountSettings = z.output<typeof account>;

const CLUSTER_URL_EXPECTED =
  'a reference to an environment variable such as "$FLOTILLA_DATABASE_URL" — never the URL itself (it holds a password)';
/**
 * Distributed mode (issue #33, src/cluster/README.md): absent, one machine on SQLite. `postgres` names the
 * variable of flotilla's environment that holds the PostgreSQL URL, so the file never holds the password.
 */
const cluster = object({
  postgres: z
    .string({ error: CLUSTER_URL_EXPECTED })
    .regex(/^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)$/, {
      error: `expected ${CLUSTER_URL_EXPECTED}`,
    }),
  /** The git remote workers fetch the runs' commits from (a shared bare repository on the local provider). */
  remote: nonEmptyString('a git remote name').default('origin'),
  /** Seconds a worker's heartbeat lasts unrenewed: past it, its runs go to another worker. */
  heartbeatTimeout: seconds().default(15),
  /** Seconds the controller's lease lasts unrenewed: past it, a standby `flotilla run` takes over. */
  leaseTimeout: seconds().default(5),
});
export type ClusterSettings = z.output<typeof cluster>;
const usd = (what: string) =>
  z
    .number({ error: `a positive number of US dollars (${what})` })
    .positive({ error: `a positive number of US dollars (${what})` })
    .optional();

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Spend caps (src/config/README.md "budgets"); every cap is optional: absent means no cap. */
const budgets = object({
  perRunUsd: usd('the most one agent run may spend'),
  perRole: object({
    planner: usd("the planner's per-run cap"),
    implementor: usd("the implementor's per-run cap"),
    reviewer: usd("the reviewer's per-run cap"),
  }).prefault({}),
  perItemUsd: usd('the most all runs of one work item may spend, reworks included'),
  dailyUsd: usd("the repository's spend per day"),
  monthlyUsd: usd("the repository's spend per month"),
  timeZone: z
    .string({ error: "an IANA time zone name such as 'Europe/Paris' or 'UTC'" })
    .refine(isTimeZone, { error: "expected an IANA time zone name such as 'Europe/Paris' or 'UTC'" })
    .default('UTC'),
  /** The least a run is estimated to cost before it starts (the estimate is the p90 of recent runs). */
  estimateFloorUsd: z
    .number({ error: 'a number of US dollars ≥ 0 (the least a run is estimated at)' })
    .min(0, { error: 'a number of US dollars ≥ 0 (the least a run is estimated at)' })
    .default(0.05),
}).prefault({});

/** Lower case, digits, `.`, `_`, `-`: no `:`, so a name never looks like `cli:<preset>`. */
const NAMED_RUNTIME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
const NAMED_RUNTIME_EXPECTED = 'the key to be a runtime name of lower-case letters, digits, ".", "_" or "-"';

/** The providers `provider` names (src/providers/registry.ts); the first is the default. */
export const PROVIDERS: readonly string[] = PROVIDER_REGISTRY.map((entry) => entry.name);
/** The providers with a config block of their own, required when `provider` names them. */
const PROVIDER_BLOCKS = PROVIDER_REGISTRY.flatMap((entry) =>
  entry.config === undefined ? [] : [{ name: entry.name, expected: entry.config.expected }],
);

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The on-disk shape of `flotilla.config.json`. Every field is optional; `.prefault({})` fills sections. */
export const flotillaConfigFileSchema = object({
  provider: z
    .enum(PROVIDERS as [string, ...string[]], { error: quoteList(PROVIDERS) })
    .default(PROVIDER_REGISTRY[0].name),
  /** Each provider's own block (`github`: where its issues live), from src/providers/registry.ts. */
  ...buildProviderConfigShape(),
  /** Absent: detected from the repository (origin/HEAD, then the current branch, then `main`). */
  defaultBranch: nonEmptyString('a branch name').optional(),
  specsDir: nonEmptyString('a directory relative to the repository root').default('docs/specs'),
  runtimes: object({ planner: runtime, implementor: runtime, reviewer: runtime }).prefault({}),
  /**
   * Runtimes a work item's `runtime:<name>` label may name besides the built-in names (`claude`, `codex`,
   * `scripted`, `cli:<preset>`): e.g. `{"aider-local": {"runtime": "cli", "preset": "aider", "program": […]}}`.
   */
  namedRuntimes: z
    .record(
      z
        .string()
        .regex(NAMED_RUNTIME_PATTERN, { error: NAMED_RUNTIME_EXPECTED })
        .refine((name) => !AGENT_RUNTIMES.includes(name), {
          error: `${NAMED_RUNTIME_EXPECTED}, not a built-in runtime name`,
        }),
      runtime,
      {
        // A bad name: its own expectation, not the record's.
        error: (issue) =>
          issue.code === 'invalid_key'
            ? (issue.issues[0]?.message ?? NAMED_RUNTIME_EXPECTED)
            : 'an object: runtime name → runtime',
      },
    )
    .default({}),
  models: object({ planner: model, implementor: implementorModel, reviewer: model }).prefault({}),
  /**
   * Per-mode limits (issue #29): `maxTurns` over the agent definition's, `timeout`
   * in place of `maxAgentDuration`. Unset: DEFAULT_MODE_LIMITS in src/domain/mode-limits.ts (plan 100 turns / 5 min, implement 200 /
   * 10 min, review 50 turns, investigate and refine 100 / 5 min), never longer than `maxAgentDuration`.
   */
  limits: object({
    plan: modeLimits,
    implement: modeLimits,
    review: modeLimits,
    investigate: modeLimits,
    refine: modeLimits,
  }).prefault({}),
  /** Credential profiles per runtime; a usage limit fails over to the next (see src/config/README.md). */
  accounts: z
    .array(account, { error: 'a list of accounts ({ name, runtime, env })' })
    .refine((list) => new Set(list.map((entry) => entry.name)).size === list.length, {
      error: 'accounts with different names (each name once)',
    })
    .default([]),
  /** Absent: one machine (SQLite, no server); present: workers over PostgreSQL (src/cluster/). */
  cluster: cluster.optional(),
  maxAgentDuration: seconds().default(1800),
  shutdownTimeout: seconds().default(300),
  scheduler: object({
    maxConcurrentAgents: integerAtLeast(1).default(3),
    maxAttempts: integerAtLeast(1).default(3),
    retryBaseDelay: seconds().default(30),
    retryMaxDelay: seconds().default(900),
    stallTimeout: seconds().default(900),
    // Start an agent only when the machine can hold it (src/app/resources/); "off": only the slots limit.
    resources: z
      .union([
        z.literal('off'),
        object({
          reserveMemoryMiB: integerAtLeast(0, ' (MiB)').default(1024),
          agentMemoryMiB: integerAtLeast(1, ' (MiB)').default(600),
          maxLoadPerCpu: z
            .number({ error: 'a number > 0, or null to ignore the CPU load' })
            .positive({ error: 'a number > 0, or null to ignore the CPU load' })
            .nullable()
            .default(null),
        }),
      ])
      .prefault({}),
  })
    .refine((scheduler) => scheduler.retryMaxDelay >= scheduler.retryBaseDelay, {
      error: 'expected an integer ≥ scheduler.retryBaseDelay',
      path: ['retryMaxDelay'],
    })
    .prefault({}),
  budgets,
  maxReviewRounds: integerAtLeast(1).default(3),
  maxCheckRounds: integerAtLeast(1).default(2),
  /**
   * Whether agents' plans, investigations and refinements wait for a human (issue #29): `auto` applies them
   * at once, `required` stores each as a proposal to `/accept` or `/reject`.
   */
  approval: object({
    plans: approvalMode,
    investigations: approvalMode,
    refinements: approvalMode,
  }).prefault({}),
  /**
   * Modes the engine starts on its own (issue #29 §1): `refine.auto` gives an item in needs-refinement, or a
   * `task:refinement` item, a `refine` run once per version of its description (the engine's
   * handlers/handle-auto-refinement.ts). On by default; false: such items wait for a human.
   */
  modes: object({
    refine: object({
      auto: z.boolean({ error: 'true or false' }).default(true),
    }).prefault({}),
  }).prefault({}),
  /**
   * When a blocker stops blocking (issue #30): `approved` — its dependents start on top of its approved
   * revision (stacked); `merged` — only once it is merged (closed).
   */
  dependencies: object({
    waitFor: z.enum(['approved', 'merged'], { error: "'approved' or 'merged'" }).default('approved'),
  }).prefault({}),
  /**
   * The merge queue (issue #30 §5): `queue: true` merges every approved item on its own, one at a time in
   * priority order, each first brought onto the default branch and merged only with green checks there.
   * Off by default: merging is a human's decision (`flotilla merge`, the dashboard).
   */
  merge: object({
    queue: z.boolean({ error: 'true or false' }).default(false),
  }).prefault({}),
  /** Seconds an item waits for answers to its agent's questions before it goes to needs-refinement (7 days). */
  questionTimeout: seconds().default(604_800),
  /** Repository memory (issue #28 §2): characters the "Memories" section of every prompt may take. */
  memory: object({
    maxPromptChars: integerAtLeast(500).default(8000),
  }).prefault({}),
  pollIntervals: object({
    workItems: seconds().default(30),
    revisions: seconds().default(30),
    specs: seconds().default(60),
  }).prefault({}),
  worktree: object({
    /** A shell command, `'none'` (no setup), or null (detect from the lockfile). */
    setupCommand: z
      .union([z.string().min(1), z.null()], {
        error: "a shell command, 'none', or null (detect from the lockfile)",
      })
      .default(null),
    /**
     * Keep spare worktrees (up to two) checked out ahead at the default branch's tip for the next runs, and
     * remove a finished run's worktree behind it: git's work off the dispatch path. Off: two checkouts less
     * on disk.
     */
    prepareAhead: z.boolean({ error: 'true or false' }).default(true),
    /** Paths or globs (relative to the repository root) copied into every worktree, never in a patch. */
    copy: z
      .array(
        nonEmptyString('a path or glob relative to the repository root').refine(
          (path) => !path.startsWith('/') && !path.split('/').includes('..'),
          { error: "expected a path or glob relative to the repository root (no leading '/', no '..')" },
        ),
        { error: 'a list of paths or globs relative to the repository root' },
      )
      .default([]),
    /** A shell command run in a run's worktree before it is removed (a failure is logged); null: none. */
    teardownCommand: z
      .union([z.string().min(1, { error: 'a shell command, or null (none)' }), z.null()], {
        error: 'a shell command, or null (none)',
      })
      .default(null),
    /** Ports per worktree (`FLOTILLA_PORT`, `FLOTILLA_PORT_1`…); 0: none. */
    ports: z
      .number({ error: 'an integer from 0 to 100' })
      .int({ error: 'an integer from 0 to 100' })
      .min(0, { error: 'an integer from 0 to 100' })
      .max(100, { error: 'an integer from 0 to 100' })
      .default(10),
  }).prefault({}),
  checks: object({
    /** Shell command run in a worktree of each revision; null = no checks (the pipeline succeeds). */
    command: z
      .union([z.string().min(1), z.null()], { error: 'a shell command, or null (no checks)' })
      .default(null),
    timeout: seconds().default(1800),
  }).prefault({}),
  validation: object({
    /**
     * Shell commands run in the implementor's worktree after it reports `completed`, before its patch is
     * taken; a failure sends the output back to the agent (same session) for another round.
     */
    commands: z.array(nonEmptyString('a shell command'), { error: 'a list of shell commands' }).default([]),
    /** Fix rounds after the first failing validation; still red after the last → the run fails. */
    maxRounds: integerAtLeast(0).default(3),
    /** Each command is killed (with everything it started) after this long; that counts as a failure. */
    timeout: seconds().default(600),
  }).prefault({}),
  contextPaths: z
    .array(nonEmptyString('a path relative to the repository root'), { error: 'a list of file paths' })
    .default(['.claude/CLAUDE.md']),
  logging: object({
    level: z.enum(LOG_LEVELS, { error: "'debug', 'info', 'warn' or 'error'" }).default('info'),
    agentSessions: z.boolean({ error: 'true or false' }).default(true),
    /**
     * Each run's transcript stops at this many bytes with one `[output truncated] …` line (issue #28 §5);
     * at least 64 KiB, default 5 MiB.
     */
    maxRunBytes: integerAtLeast(65536).default(5 * 1024 * 1024),
  }).prefault({}),
  bashValidator: bashValidatorRulesOverridesSchema.prefault({}),
  pathGuard: object({
    /** Readable by agents' file tools besides their worktree (never writable); relative to the repository root. */
    readOnlyPaths: z
      .array(nonEmptyString('an absolute path or one relative to the repository root'), {
        error: 'a list of paths',
      })
      .default([]),
  }).prefault({}),
  /**
   * The OS sandbox every agent and every command run for it starts in (src/sandbox/README.md): "on" (the
   * default), "off" (a loud opt-out), or the settings object.
   */
  sandbox: z
    .union(
      [
        z.enum(['on', 'off']),
        object({
          mode: z.enum(['on', 'off'], { error: "'on' or 'off'" }).default('on'),
          network: object({
            allow: z
              .array(nonEmptyString('a host or host:port'), { error: 'a list of hosts (host or host:port)' })
              .default([]),
          }).prefault({}),
          passEnv: z
            .array(nonEmptyString('an environment variable name'), { error: 'a list of variable names' })
            .default([]),
          filesystem: object({
            allowRead: z.array(absolutePath(), { error: 'a list of absolute paths' }).default([]),
            denyRead: z.array(absolutePath(), { error: 'a list of absolute paths' }).default([]),
          }).prefault({}),
        }),
      ],
      { error: "'on', 'off' or { mode, network: { allow }, passEnv, filesystem: { allowRead, denyRead } }" },
    )
    .default('on')
    .transform((value) =>
      typeof value === 'string'
        ? { mode: value, networkAllow: [], passEnv: [], allowRead: [], denyRead: [] }
        : {
            mode: value.mode,
            networkAllow: value.network.allow,
            passEnv: value.passEnv,
            allowRead: value.filesystem.allowRead,
            denyRead: value.filesystem.denyRead,
          },
    ),
  /**
   * A scripted model-server scenario (JSON, see src/model-server/README.md) answering the roles whose runtime
   * is `scripted`: the real Claude adapter runs against it on 127.0.0.1 (dry runs, demos, CI).
   */
  scriptedScenario: nonEmptyString('a scenario file path relative to the repository root').optional(),
  /**
   * Which runtime plays the `scripted` roles against that scenario: `claude` (the Claude adapter on its
   * Messages endpoint) or `codex` (the real codex binary on its Responses endpoint, with a dummy key).
   */
  scriptedRuntime: z
    .enum(SCRIPTED_PLAYERS, { error: quoteList(SCRIPTED_PLAYERS) })
    .default(SCRIPTED_PLAYERS[0]),
})
  .superRefine((config, context) => {
    // A provider with a block needs it: `expected { owner, repo } when provider is '<name>'`.
    for (const block of PROVIDER_BLOCKS) {
      if (config.provider !== block.name || (config as Record<string, unknown>)[block.name] !== undefined)
        continue;
      context.addIssue({
        code: 'custom',
        message: `expected ${block.expected} when provider is '${block.name}'`,
        path: [block.name],
      });
    }
  })
  .refine(
    (config) =>
      config.scriptedScenario !== undefined ||
      ![
        config.runtimes.planner,
        config.runtimes.implementor,
        config.runtimes.reviewer,
        ...Object.values(config.namedRuntimes),
      ].some((entry) => typeof entry === 'string' && SCRIPTED_RUNTIMES.includes(entry)),
    {
      error: `expected a scenario file path when any of runtimes.* or namedRuntimes.* is ${quoteList(SCRIPTED_RUNTIMES)}`,
      path: ['scriptedScenario'],
    },
  );

export type FlotillaConfigFile = z.input<typeof flotillaConfigFileSchema>;
type ParsedConfigFile = z.output<typeof flotillaConfigFileSchema>;

/** The effective configuration: the file's values over the defaults, with `defaultBranch` resolved. */
export type FlotillaConfig = Omit<ParsedConfigFile, 'defaultBranch'> & { defaultBranch: string };

export const CONFIG_FILE_NAME = 'flotilla.config.json';
