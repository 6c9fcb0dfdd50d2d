#!/usr/bin/env node
// Checks commit messages: a subject of at most 72 characters, a blank line after it, and a body when the
// change is not trivial (more than 50 changed lines). Plain Node, no dependencies, so it runs as a git hook
// before `npm ci`. Modes:
//   check-commit-message.js <message-file>   git's commit-msg hook: the message being written, sized by the
//                                            staged change (`scripts/git-hooks/commit-msg`)
//   check-commit-message.js --branch        `npm run lint`: the commits of this branch (see branchCommits)
//   check-commit-message.js --range A..B    the commits of a range
// Exit codes: 0 fine, 1 a message breaks a rule (each named), 2 usage error.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX_SUBJECT_LENGTH = 72;
/** More changed lines (added plus deleted, as `git diff --numstat` counts them) than this need a body. */
const TRIVIAL_CHANGE_LINES = 50;
/** Without origin/main, `--branch` checks at most this many of the latest commits. */
const RECENT_COMMITS = 10;
/** This file: commits older than the one that added it were never held to its rules. */
const SELF = 'scripts/check-commit-message.js';
/** git's `--verbose` scissors line: everything from it on is not part of the message. */
const SCISSORS = /^# -+ >8 -+$/m;
/** Commits made to be squashed away: their subjects are git's, their bodies optional. */
const AUTOSQUASH = /^(?:fixup|squash|amend)! /;

/**
 * The problems of one message (empty: none). `changedLines`: the size of its change. Comment lines (`#`) are
 * dropped as git's default cleanup drops them.
 */
export function checkCommitMessage(message, changedLines) {
  const lines = message
    .split(SCISSORS)[0]
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  const [subject = '', separator, ...rest] = lines;
  const problems = [];
  if (subject === '') return ['the message is empty'];
  if (subject.length > MAX_SUBJECT_LENGTH)
    problems.push(
      `the subject has ${subject.length} characters; at most ${MAX_SUBJECT_LENGTH}: "${subject}"`,
    );
  if (separator !== undefined && separator !== '')
    problems.push(
      'the second line must be blank: the subject is one line, the body comes after a blank line',
    );
  const body = [separator ?? '', ...rest].join('\n').trim();
  if (body === '' && changedLines > TRIVIAL_CHANGE_LINES && !AUTOSQUASH.test(subject))
    problems.push(
      `the change has ${changedLines} changed lines (more than ${TRIVIAL_CHANGE_LINES}) and no body: say why, and any numbers`,
    );
  return problems;
}

function git(args) {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Added plus deleted lines of `--numstat` output (binary files count as one line each). */
function sumNumstat(output) {
  let total = 0;
  for (const line of output.split('\n')) {
    const [added, deleted] = line.split('\t');
    if (added === undefined || deleted === undefined) continue;
    total += added === '-' ? 1 : Number(added) + Number(deleted);
  }
  return total;
}

/**
 * The commits `--branch` checks: those of HEAD since it left origin/main when that exists, else the latest
 * RECENT_COMMITS; either way none older than the commit that added this script (older ones were written
 * before the rules), and no merges (git writes their messages).
 */
function branchCommits() {
  const head = git(['rev-parse', '--verify', '--quiet', 'HEAD']);
  if (!head.ok) return [];
  const upstream = git(['merge-base', 'HEAD', 'origin/main']);
  const range = upstream.ok ? [`${upstream.stdout.trim()}..HEAD`] : ['-n', String(RECENT_COMMITS), 'HEAD'];
  const introduced = git(['log', '--format=%H', '--diff-filter=A', '--', SELF])
    .stdout.trim()
    .split('\n')
    .pop();
  const since = introduced ? [`^${introduced}^@`] : [];
  return rangeCommits([...range, ...since]);
}

function rangeCommits(revisions) {
  const listed = git(['rev-list', '--no-merges', ...revisions]);
  if (!listed.ok) throw new Error(`git rev-list ${revisions.join(' ')} failed: ${listed.stderr.trim()}`);
  return listed.stdout.split('\n').filter((sha) => sha !== '');
}

/** Problems of each commit, prefixed with its short name and subject. */
function checkCommits(commits) {
  const problems = [];
  for (const sha of commits) {
    const message = git(['log', '-1', '--format=%B', sha]).stdout;
    const changed = sumNumstat(git(['show', '--numstat', '--format=', sha]).stdout);
    for (const problem of checkCommitMessage(message, changed))
      problems.push(`${sha.slice(0, 8)} ${message.split('\n')[0]}\n  ${problem}`);
  }
  return problems;
}

function main(argv) {
  const [mode, value] = argv;
  let problems;
  if (mode === '--branch' && value === undefined) {
    if (!git(['rev-parse', '--git-dir']).ok) {
      console.log('check-commit-message: not in a git repository; no commits to check');
      return 0;
    }
    const commits = branchCommits();
    problems = checkCommits(commits);
    if (problems.length === 0) console.log(`check-commit-message: ${commits.length} commit(s) checked`);
  } else if (mode === '--range' && value !== undefined) {
    problems = checkCommits(rangeCommits([value]));
  } else if (mode !== undefined && !mode.startsWith('-') && value === undefined) {
    // commit-msg hook: the commit does not exist yet; the staged change is its size.
    const staged = sumNumstat(git(['diff', '--cached', '--numstat']).stdout);
    problems = checkCommitMessage(readFileSync(mode, 'utf8'), staged);
  } else {
    console.error('usage: check-commit-message.js <message-file> | --branch | --range <from>..<to>');
    return 2;
  }
  for (const problem of problems) console.error(`check-commit-message: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
