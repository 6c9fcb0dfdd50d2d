import { z } from 'zod';

// The `github` block of flotilla.config.json: the config schema takes it from the provider registry
// (src/providers/registry.ts). Each leaf carries its expectation as the zod error, as the config schema's do.

const nonEmptyString = (what: string) =>
  z.string({ error: `a non-empty string (${what})` }).min(1, { error: `a non-empty string (${what})` });
const seconds = () => {
  const expected = 'an integer ≥ 1 (seconds)';
  return z.number({ error: expected }).int({ error: expected }).min(1, { error: expected });
};

export const GITHUB_MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;

/** GitHub's `author_association` values: a comment author's relation to the repository. */
export const GITHUB_AUTHOR_ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIME_CONTRIBUTOR',
  'FIRST_TIMER',
  'MANNEQUIN',
  'NONE',
] as const;
export type GitHubAuthorAssociation = (typeof GITHUB_AUTHOR_ASSOCIATIONS)[number];
/** Who may answer an agent's questions with a reply comment, by default: people with a say over the repository. */
export const DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS: readonly GitHubAuthorAssociation[] = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
];

/** What a review comment or pull request comment mentions to send its item back to an implementor. */
export const DEFAULT_MENTION_TRIGGER = '@flotilla';

/** GitHub's guidance for secondary rate limits: a second between content-creating requests. */
export const DEFAULT_WRITE_INTERVAL_MS = 1000;

/** Where the `github` provider's issues, pull requests and specs live; its token comes from the environment. */
export const githubConfigSchema = z.strictObject(
  {
    owner: nonEmptyString('the repository owner, a user or organisation login'),
    repo: nonEmptyString('the repository name'),
    /** The REST API root; absent: https://api.github.com (GitHub Enterprise Server: https://HOST/api/v3). */
    apiUrl: z.url({ error: 'expected an http(s) URL (the REST API root)', protocol: /^https?$/ }).optional(),
    /** Where revision branches are pushed; absent: derived from apiUrl (`https://github.com/OWNER/REPO.git`). */
    gitUrl: nonEmptyString('a git remote URL or path').optional(),
    /** How `flotilla merge` (and the dashboard's merge) merges a pull request. */
    mergeMethod: z.enum(GITHUB_MERGE_METHODS, { error: "'merge', 'squash' or 'rebase'" }).default('merge'),
    /** A pull request head without any check run or status is green after this long (repositories without CI). */
    noChecksGrace: seconds().default(120),
    /** Whose reply comments answer an agent's questions, by `author_association` (the engine's own always do). */
    answerAuthorAssociations: z
      .array(
        z.enum(GITHUB_AUTHOR_ASSOCIATIONS, { error: `one of ${GITHUB_AUTHOR_ASSOCIATIONS.join(', ')}` }),
        {
          error: `a list of author associations (${GITHUB_AUTHOR_ASSOCIATIONS.join(', ')})`,
        },
      )
      .default([...DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS]),
    /** A comment on a Flotilla pull request mentioning this (by someone allowed above) asks for a rework. */
    mentionTrigger: z
      .string()
      .regex(/^@[A-Za-z0-9][A-Za-z0-9_-]*$/, {
        error: "expected a mention such as '@flotilla' (@, then a login-like name)",
      })
      .default(DEFAULT_MENTION_TRIGGER),
    /**
     * The least time between two writes (anything but GET/HEAD), in milliseconds: GitHub asks for a second
     * between content-creating requests (its secondary rate limits). Keep the default on GitHub; only the
     * demo's fake GitHub (which has no secondary limits unless a test injects one) sets it lower.
     */
    writeIntervalMs: z
      .number({ error: 'an integer from 0 to 60000 (milliseconds)' })
      .int({ error: 'an integer from 0 to 60000 (milliseconds)' })
      .min(0, { error: 'an integer from 0 to 60000 (milliseconds)' })
      .max(60_000, { error: 'an integer from 0 to 60000 (milliseconds)' })
      .default(DEFAULT_WRITE_INTERVAL_MS),
  },
  // Strict: a typo must be an error, never silently ignored.
  { error: 'an object' },
);

/** The `github` block, defaults applied. */
export type GitHubProviderSettings = z.output<typeof githubConfigSchema>;
