import type { z } from 'zod';
import type { Logger } from '../logging/logger.ts';
import type { Database, SqlConnection, SqliteTracker } from '../storage/index.ts';
import type { Provider, ProviderChangeListener } from './types.ts';

/** An environment, as read (absent and empty variables alike). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** How a provider's revisions are merged into the default branch when it merges them itself. */
export type MergeMethod = 'merge' | 'squash' | 'rebase';

/**
 * Everything the composition root (src/app/create-control-plane.ts) and the CLI hand a provider's `create`:
 * the configuration it needs, already resolved to paths.
 */
export interface ProviderBuildContext {
  repoRoot: string;
  defaultBranch: string;
  specsDir: string;
  /** `checks` of flotilla.config.json: the local checks' command (null: none) and timeout in seconds. */
  checks: { command: string | null; timeout: number };
  /** `.flotilla/tmp/`: Flotilla's scratch directory in the repository. */
  scratchDir: string;
  /** `.flotilla/logs/`. */
  logsDir: string;
  /** `.flotilla/flotilla.db`: the local tracker's database (a provider that keeps nothing there ignores it). */
  db: Database;
  /**
   * Cluster mode (`cluster.postgres`), for a provider that tracks locally: the cluster's PostgreSQL, where its
   * tracker lives instead of `db` so every machine sees the same items (src/storage/README.md "Two backends").
   */
  trackerState?: SqlConnection;
  /**
   * Cluster mode (`cluster.remote`): the git remote the machines share. A provider that merges in this
   * clone (local) merges onto that remote's default branch; one that merges on its tracker ignores it.
   */
  sharedRemote?: string;
  /** Where credentials are read from (never the config file). */
  env: ProviderEnv;
  logger: Logger;
  /** `flotilla merge --squash|--rebase|--merge`, over what the provider's config says. */
  mergeMethod?: MergeMethod;
}

/** One `flotilla doctor` line (DoctorCheck of src/cli/commands/doctor-command-checks.ts). */
export interface ProviderDoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  message: string;
  fix: string[];
}

/** What a provider's doctor checks are given. */
export interface ProviderDoctorInput<Settings> {
  repoRoot: string;
  defaultBranch: string;
  specsDir: string;
  checks: { command: string | null; timeout: number };
  env: ProviderEnv;
  settings: Settings;
}

/** What `flotilla github setup-labels` does: the label set created or updated, idempotently. */
export interface LabelSetup {
  setupLabels(): Promise<{ created: string[]; updated: string[]; unchanged: string[] }>;
  /** Capability: the repository hook its webhooks come through (`flotilla github setup-webhook`). */
  setupWebhook?(webhook: {
    url: string;
    secret: string;
  }): Promise<{ id: number; created: boolean; events: string[] }>;
}

/** One HTTP request to a provider's webhook route, as it arrived: its headers and raw body bytes. */
export interface WebhookRequest {
  header(name: string): string | undefined;
  body: Uint8Array;
}

/** Change notifications a tracker pushes (GitHub's webhooks): verified, then polls now (Provider.onChange). */
export interface WebhookReceiver {
  receive(request: WebhookRequest): { status: 200 | 400 | 401 | 415; body: { ok: boolean; message: string } };
  onChange(listener: ProviderChangeListener): () => void;
  /** How much slower the engine's timers may poll while notifications flow (1: as configured). */
  pollIntervalFactor(): number;
}

/** What `run --serve` mounts for a provider's webhooks: at `path`, or nothing (`off` says why). */
export interface ProviderWebhooks {
  /** The route, e.g. `/webhooks/<provider>`. */
  path: string;
  /** Absent: not configured (no secret): no route is mounted. */
  receiver?: WebhookReceiver;
  /** Why there is no receiver, for the start-up line; '' when there is one. */
  off: string;
  /** The largest body its tracker sends (the route refuses larger ones with 413). */
  maxBodyBytes: number;
}

/**
 * Where a provider's work items live on the web (GitHub issues), for the CLI's messages: an item's page
 * (`itemUrl`) and the list of items (`itemsUrl`).
 */
export interface ItemLinks {
  /** Where the tracker is, in words: `GitHub`. */
  site: string;
  itemUrl(id: string): string;
  itemsUrl: string;
}

/**
 * A provider as the control plane and the CLI hold it: the contract, what running it needs (`close()`,
 * `runPendingChecks()`), and optional capabilities beyond the contract that the CLI asks for by name.
 */
export type ConfiguredProvider = Provider & {
  /** Its registry name (`provider` in flotilla.config.json). */
  name: string;
  /** Releases what it holds (local: cancels checks in flight). */
  close(): Promise<void>;
  /** (Re)starts the checks it runs itself and waits for them; a provider whose checks run elsewhere: nothing. */
  runPendingChecks(): Promise<void>;
  /**
   * Capability: the local tracker itself (`.flotilla/flotilla.db`, or the cluster's PostgreSQL in cluster
   * mode), for what only it can do: free labels,
   * comment history, closed items, branches, the HTTP API, item outcomes for `flotilla stats`.
   */
  localTracker?: SqliteTracker;
  /** Capability: how its `mergeRevision` merges (the config's, or the command's override). */
  mergeMethod?: MergeMethod;
};

/** A provider's own block of flotilla.config.json (`"<name>": {…}`), required when `provider` names it. */
export interface ProviderConfigBlock<Settings> {
  schema: z.ZodType<Settings>;
  /** What the block must hold, for the error when it is missing: `{ owner, repo }`. */
  expected: string;
}

/** One flag of `flotilla init --provider <name>` that only this provider takes. */
export interface ProviderInitFlag {
  /** Commander's flag syntax, e.g. `--owner <owner>`. */
  flags: string;
  /** The option's key as commander names it (`--api-url` → `apiUrl`). */
  key: string;
  /** For `flotilla init --help`: what it sets. */
  description: string;
}

/**
 * Capability: what `flotilla init --provider <name>` needs of a provider that has a config block — its own
 * flags and the block they make.
 */
export interface ProviderInit {
  flags: readonly ProviderInitFlag[];
  /**
   * The config block to write under the provider's name from the flags given (by key), completed from the
   * repository (e.g. its origin remote); a string is a usage error naming what to give.
   */
  buildBlock(
    repoRoot: string,
    given: Readonly<Record<string, string | undefined>>,
  ): Promise<Record<string, unknown> | string>;
  /** The paragraph printed after init's next steps (credentials, set-up commands), given the block written. */
  nextSteps(block: Record<string, unknown>): string;
}

/** What the CLI says for a command the provider does not support (its refusal, exit 2). */
export type UnsupportedCommand = 'branches prune' | 'serve';

/**
 * One provider (tracker), as the rest of Flotilla sees it: everything the config schema, the composition root,
 * `flotilla doctor` and the CLI need, so that adding a provider is its folder plus one line in
 * src/providers/registry.ts.
 */
// Methods, not function properties: a descriptor of specific settings is one of `ProviderDescriptor<unknown>`
// (the registry's list), and each is called only with the settings its own config block validated.
export interface ProviderDescriptor<Settings = unknown> {
  /** The name `provider` in flotilla.config.json takes. */
  name: string;
  /** One line for error messages and the config README. */
  summary: string;
  /** Its config block, under its name; absent: it has none (settings are `undefined`). */
  config?: ProviderConfigBlock<Settings>;
  /**
   * Its work items live in the local tracker (`.flotilla/flotilla.db`): the commands that read that database
   * directly (`flotilla stats`' item outcomes) see them.
   */
  tracksLocally: boolean;
  /** The provider. Throws (a usage problem: no token, a bad block) with a message naming what to fix. */
  create(context: ProviderBuildContext, settings: Settings): Promise<ConfiguredProvider>;
  /** `flotilla doctor`'s lines about the tracker (specs, token, access, labels), after the agent files. */
  checkTracker(input: ProviderDoctorInput<Settings>): Promise<ProviderDoctorCheck[]>;
  /** `flotilla doctor`'s `checks` line: what runs a revision's checks. */
  checkChecks(input: ProviderDoctorInput<Settings>): Promise<ProviderDoctorCheck>;
  /** Capability: its items' web pages, for the CLI's messages (known without creating it). */
  links?(settings: Settings): ItemLinks;
  /**
   * Capability: the repository side of the tracker set up from the CLI (`flotilla github setup-labels`).
   * Throws (a usage problem: no token) with a message naming what to fix.
   */
  openLabelSetup?(settings: Settings, env: ProviderEnv): Promise<LabelSetup>;
  /**
   * Capability: the tracker's change notifications for `flotilla run --serve` (GitHub webhooks), verified
   * with a secret from `env`; without the secret, no receiver.
   */
  openWebhooks?(settings: Settings, env: ProviderEnv, logger: Logger): Promise<ProviderWebhooks>;
  /** Capability: `flotilla init --provider <name>`'s flags and the config block they write. */
  init?: ProviderInit;
  /** The refusal of a CLI command it does not support; absent: every command is supported. */
  unsupported?: Partial<Record<UnsupportedCommand, string>>;
}
