import { describe, expect, it } from 'vitest';
import { validateBashCommand } from '../validate-bash-command.ts';

const reasonOf = (command: string) => {
  const result = validateBashCommand(command);
  return result.allowed ? null : result.reason;
};

describe('git rules', () => {
  it.each([
    'git status',
    'git -C sub status',
    'git --no-pager log -5',
    'git -c user.name=Bot -c color.ui=never commit -m x',
    'git config --get user.name',
    'git config --list --show-origin',
    'git config get alias.st',
    'git config --unset core.pager',
    'git checkout main',
    'git checkout -b topic',
    'git checkout HEAD~1 -- src/a.ts',
    'git restore src/a.ts',
    'git restore --staged .',
    'git branch -d merged-topic',
    'git clean -n',
    'git reset --soft HEAD~1',
    'git stash list',
    'git rebase -x "npm test" main',
    'git bisect run npm test',
    'git commit -m "$(date)"',
    'git log --output=/tmp/log.txt',
    'git fetch origin',
    'git worktree add ../wt topic',
    'git merge -s ours topic',
    'git cherry-pick -s abc123',
    'git clone https://example.com/repo.git',
    'git clone git@example.com:org/repo.git',
    'git lfs pull',
  ])('allows %j', (command) => {
    expect(reasonOf(command)).toBeNull();
  });

  it.each([
    ['git push', /agents never push/],
    ['git push --force-with-lease', /agents never push/],
    ['git --no-pager push', /agents never push/],
    ['git reset --hard', /git\\s\+reset\\s\+--hard/],
    ['git reset --h', /git\\s\+reset\\s\+--hard/],
    ['git clean -fdx', /git\\s\+clean/],
    ['git clean --force', /git\\s\+clean/],
    ['git checkout .', /git\\s\+checkout\\s\+\\\./],
    ['git checkout HEAD -- :/', /git\\s\+checkout/],
    ['git checkout -f main', /discards local changes/],
    ['git restore --worktree --staged .', /git\\s\+restore/],
    ['git switch --discard-changes main', /discards local changes/],
    ['git branch -D x', /git\\s\+branch/],
    ['git branch -df x', /git\\s\+branch/],
    ['git stash clear', /destroys stashed work/],
    ['git -c ALIAS.x=!id x', /refused/],
    ['git -c core.fsmonitor=id status', /refused/],
    ['git -c include.path=/tmp/x status', /refused/],
    ['git --config-env=core.pager=X log', /refused/],
    ['git config --global credential.helper "!id"', /refused/],
    ['git config set alias.x "!id"', /refused/],
    ['git config --edit', /editor/],
    ['git -c "$K=v" log', /computed at run time|refused/],
    ['git "$SUB"', /computed at run time/],
    ['git log --output=.git/hooks/pre-commit', /protected/],
    ['git format-patch -o .git/hooks HEAD~1', /protected/],
    ['git -C .git/hooks status', /protected/],
    ['git init --template=/tmp/tpl x', /names a program/],
    ['git fetch --upload-pack=id origin', /names a program/],
    ['git archive --exec=id --remote=x HEAD', /names a program/],
    ['git grep -O foo', /pager/],
    ['git grep --open-files-in-pager=id foo', /names a program/],
    ['git filter-branch --tree-filter id HEAD', /shell filters/],
    ['git difftool -x id', /external diff/],
    ['git credential fill', /credentials/],
    ['git rebase -x "rm -rf x" main', /rm\\s/],
    ['git bisect run rm -rf x', /rm\\s/],
    ['git --unknown-global status', /unrecognised git global option/],
    ['git log $(echo --output=x)', /computed at run time/],
    ['git evil', /not a git subcommand/],
    ['git st', /not a git subcommand/],
    ['git merge -s evil topic', /git-merge-evil/],
    ['git pull --strategy=evil', /git-merge-evil/],
    ['git cherry-pick --strategy evil abc', /git-merge-evil/],
    ['git fetch evil::whatever', /git-remote-evil/],
    ['git clone evil://host/repo', /git-remote-evil/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });
});
