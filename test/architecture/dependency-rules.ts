/**
 * The floors of `src/` and who may import whom: the table `dependency-rules.test.ts` holds every import in
 * `src/` to. Change the architecture here, on purpose, with the reason beside the entry.
 */

export interface FloorDefinition {
  name: string;
  /** Repository-relative path prefixes (a folder ends with `/`; a file is matched exactly). */
  paths: readonly string[];
  /** Floors this floor may import, besides itself. */
  mayImport: readonly string[] | 'every floor';
  /** What the floor is, for the failure message. */
  role: string;
}

export interface PackageRule {
  /** Floors allowed to import the package; 'all but domain' for general-purpose ones. */
  floors: readonly string[] | 'all but domain';
}

export interface KnownException {
  /** The work that removes it. */
  reason: string;
  /** Imports it tolerates: from files under `from` to files under `to` (repository-relative prefixes). */
  edges: readonly { from: string; to: string }[];
}

export interface DependencyRules {
  /** Most specific first: a file belongs to the first floor one of whose paths it starts with. */
  floors: readonly FloorDefinition[];
  /** Test support: production files never import these (tests may import anything). */
  testSupport: (path: string) => boolean;
  /** Packages by name (`@scope/name` or `name`); `node:` builtins are allowed everywhere but domain. */
  packages: Readonly<Record<string, PackageRule>>;
  /** Packages only tests and test support may import. */
  testOnlyPackages: readonly string[];
  /** Edges tolerated for now, each with the work that removes it. */
  exceptions: readonly KnownException[];
}

/** The low floors every other floor may stand on. */
const BASE = ['domain', 'shared'];
const LOW = [...BASE, 'logging', 'process'];

const floors: FloorDefinition[] = [
  { name: 'domain', paths: ['src/domain/'], mayImport: [], role: 'pure types and tables; imports nothing' },
  { name: 'shared', paths: ['src/shared/'], mayImport: ['domain'], role: 'tiny helpers' },
  { name: 'logging', paths: ['src/logging/'], mayImport: BASE, role: 'logs' },
  { name: 'process', paths: ['src/process/'], mayImport: [...BASE, 'logging'], role: 'running programs' },
  {
    name: 'guards',
    paths: ['src/guards/'],
    mayImport: LOW,
    role: 'the bash validator, the path guard, the agent environment',
  },
  {
    name: 'config',
    paths: ['src/config/'],
    // The config file embeds the bash validator's rule overrides, validated by the guard's own schema, each
    // runtime's own config form (the runtime registry) and each provider's own block (the provider registry).
    mayImport: [
      ...LOW,
      'guards',
      'runtimes/registry',
      'runtimes/shared',
      'providers/registry',
      'providers/descriptor',
    ],
    role: 'flotilla.config.json',
  },
  {
    name: 'workspace',
    paths: ['src/workspace/'],
    // The patch check refuses the guards' protected paths: one list, shared.
    mayImport: [...LOW, 'guards'],
    role: 'worktrees, setup, patches',
  },
  {
    name: 'session-log',
    paths: ['src/session-log/'],
    // A transcript's header records the run's start parameters, which the runtime contract defines.
    mayImport: [...LOW, 'runtime-contract'],
    role: 'agent session transcripts',
  },
  { name: 'model-server', paths: ['src/model-server/'], mayImport: LOW, role: 'scripted model servers' },
  {
    // Runtimes and the control plane wrap every agent process in it; it knows nothing of either.
    name: 'sandbox',
    paths: ['src/sandbox/'],
    mayImport: LOW,
    role: 'the OS sandbox (bubblewrap) around agent processes',
  },
  {
    name: 'storage',
    paths: ['src/storage/'],
    mayImport: [...BASE, 'logging'],
    role: 'SQLite, and the engine state on PostgreSQL',
  },
  {
    // Several machines over PostgreSQL (issue #33): the controller's lease, the durable run queue (DBOS), the
    // workers' heartbeats; runs cross machines as the runtime contract's plain data. Knows no engine internals.
    name: 'cluster',
    paths: ['src/cluster/'],
    mayImport: [...LOW, 'runtime-contract'],
    role: 'the cluster over PostgreSQL (leadership, run queue, workers)',
  },
  {
    // Pure builders over plain run and item records: `flotilla stats` and the dashboard's stats panel share them.
    name: 'analytics',
    paths: ['src/analytics/'],
    mayImport: BASE,
    role: 'outcome analytics (pure)',
  },
  {
    name: 'provider-contract',
    paths: ['src/providers/types.ts'],
    mayImport: ['domain'],
    role: "the providers' contract types",
  },
  {
    // One provider implementation never imports another: what two of them share (git plumbing, spec front
    // matter) moves here.
    name: 'providers/shared',
    paths: ['src/providers/shared/'],
    mayImport: [...LOW, 'provider-contract'],
    role: 'what provider implementations share',
  },
  {
    // What a provider is to the config schema, the composition root, doctor and the CLI: its descriptor type
    // (the capabilities name the local tracker, so storage).
    name: 'providers/descriptor',
    paths: ['src/providers/provider-descriptor.ts'],
    mayImport: [...LOW, 'provider-contract', 'storage'],
    role: "the providers' descriptor type",
  },
  // Providers no longer import config: config imports their registry (each provider's block), and the floors
  // stack. What they need of the config comes through their descriptor's build context.
  ...['local', 'github'].map((provider) => ({
    name: `providers/${provider}`,
    paths: [`src/providers/${provider}/`],
    mayImport: [...LOW, 'provider-contract', 'providers/descriptor', 'providers/shared', 'storage'],
    role: `the ${provider} provider`,
  })),
  {
    // One line per provider: what config, the composition root, doctor and the CLI loop over.
    name: 'providers/registry',
    paths: ['src/providers/registry.ts'],
    mayImport: [...LOW, 'providers/descriptor', 'providers/local', 'providers/github'],
    role: 'the provider registry',
  },
  {
    name: 'runtime-contract',
    paths: ['src/engine/runtime-contract/'],
    mayImport: BASE,
    role: 'what a runtime is given and returns (plain data)',
  },
  {
    name: 'engine/state-store',
    paths: ['src/engine/state-store/'],
    mayImport: BASE,
    role: 'the pure state store and its selectors',
  },
  {
    name: 'engine/handlers',
    paths: ['src/engine/handlers/'],
    mayImport: [...BASE, 'engine/state-store'],
    role: 'pure handlers (no I/O, so no logging, process or providers)',
  },
  {
    name: 'engine',
    paths: ['src/engine/'],
    mayImport: [...LOW, 'engine/state-store', 'engine/handlers', 'runtime-contract', 'provider-contract'],
    role: 'the engine (contracts only, never runtimes, providers, storage or the outer floors)',
  },
  {
    // One runtime never imports another: the run shell they share (cancel, timeout, teardown, validation
    // rounds) lives here.
    name: 'runtimes/shared',
    paths: ['src/runtimes/shared/'],
    mayImport: [...LOW, 'runtime-contract', 'guards', 'workspace', 'session-log', 'sandbox'],
    role: 'what agent runtimes share',
  },
  ...['claude', 'scripted', 'codex', 'cli', 'gemini'].map((runtime) => ({
    name: `runtimes/${runtime}`,
    paths: [`src/runtimes/${runtime}/`],
    mayImport: [
      ...LOW,
      'runtime-contract',
      'guards',
      'workspace',
      'session-log',
      'sandbox',
      'runtimes/shared',
    ],
    role: `the ${runtime} runtime (the runtime contract, never engine internals)`,
  })),
  {
    // One line per runtime: what config, the composition root, crash recovery and doctor loop over.
    name: 'runtimes/registry',
    paths: ['src/runtimes/registry.ts'],
    mayImport: [
      ...LOW,
      'runtimes/shared',
      'runtimes/claude',
      'runtimes/scripted',
      'runtimes/codex',
      'runtimes/cli',
      'runtimes/gemini',
    ],
    role: 'the runtime registry',
  },
  {
    // What `flotilla demo` ships besides the scripted runtime: the fake GitHub behind `demo --provider github`,
    // so a newcomer sees the GitHub loop without an account. Tests use it too, but it is production code.
    name: 'demo/fake-github',
    paths: ['src/demo/fake-github/'],
    mayImport: [...LOW, 'providers/shared'],
    role: 'the fake GitHub the demo runs against',
  },
  {
    name: 'tui',
    paths: ['src/tui/'],
    mayImport: [...LOW, 'engine', 'engine/state-store', 'runtime-contract', 'session-log', 'analytics'],
    role: 'the Ink dashboard',
  },
  {
    name: 'app',
    paths: ['src/app/'],
    mayImport: [
      ...LOW,
      'guards',
      'config',
      'workspace',
      'session-log',
      'sandbox',
      'model-server',
      'storage',
      'provider-contract',
      'providers/descriptor',
      'providers/registry',
      'providers/local',
      'providers/github',
      'providers/shared',
      'demo/fake-github',
      'runtime-contract',
      'engine/state-store',
      'engine/handlers',
      'engine',
      'runtimes/claude',
      'runtimes/scripted',
      'runtimes/codex',
      'runtimes/cli',
      'runtimes/shared',
      'runtimes/registry',
      'cluster',
    ],
    role: 'the composition root (imported by cli only)',
  },
  {
    name: 'cli',
    // The HTTP API (src/api/) is the commands' other front: it calls the same command cores.
    paths: ['src/cli/', 'src/api/'],
    mayImport: 'every floor',
    role: 'the flotilla commands and the HTTP API (the top floor)',
  },
];

export const DEPENDENCY_RULES: DependencyRules = {
  floors,
  testSupport: (path) =>
    // Test doubles, fixtures and the contract suites live in test/ (test/support/); src/ keeps only tests beside
    // the code they test.
    path.startsWith('test/') || /\.test\.tsx?$/.test(path),
  packages: {
    '@anthropic-ai/claude-agent-sdk': { floors: ['runtimes/claude'] },
    // Agent definition front matter (.claude/agents/*.md) is a Claude Code format.
    'gray-matter': { floors: ['runtimes/claude'] },
    '@openai/codex-sdk': { floors: ['runtimes/codex'] },
    '@octokit/rest': { floors: ['providers/github'] },
    '@octokit/auth-app': { floors: ['providers/github'] },
    '@octokit/plugin-retry': { floors: ['providers/github'] },
    '@octokit/plugin-throttling': { floors: ['providers/github'] },
    'better-sqlite3': { floors: ['storage'] },
    pg: { floors: ['cluster'] },
    // The synchronous libpq client the engine's state uses on PostgreSQL (src/storage/README.md "Two backends").
    'pg-native': { floors: ['storage'] },
    // The durable run queue (src/cluster/README.md "Why DBOS"): one module wraps it.
    '@dbos-inc/dbos-sdk': { floors: ['cluster'] },
    commander: { floors: ['cli'] },
    hono: { floors: ['cli'] },
    '@hono/node-server': { floors: ['cli'] },
    '@hono/zod-openapi': { floors: ['cli'] },
    // `flotilla agent mcp`: Flotilla's tools as a stdio MCP server for codex (src/cli/support/serve-agent-mcp.ts).
    '@modelcontextprotocol/sdk': { floors: ['cli'] },
    ink: { floors: ['tui'] },
    react: { floors: ['tui'] },
    'string-width': { floors: ['tui'] },
    'wrap-ansi': { floors: ['tui'] },
    zustand: { floors: ['engine', 'tui'] },
    pino: { floors: ['logging'] },
    'mvdan-sh': { floors: ['guards'] },
    // Spec front matter.
    yaml: { floors: ['providers/local', 'providers/github', 'providers/shared', 'cli'] },
    zod: { floors: 'all but domain' },
  },
  // playwright-core drives Chromium in the web dashboard's browser tests and bench; esbuild only bundles
  // web/ (scripts/build-web.js). The web dashboard's own sources live in web/, outside src/ (web/README.md).
  testOnlyPackages: [
    'vitest',
    'ink-testing-library',
    '@octokit/fixtures',
    'typescript',
    'playwright-core',
    'esbuild',
  ],
  exceptions: [],
};
