import { describe, expect, it } from 'vitest';
import { validateBashCommand } from '../validate-bash-command.ts';

const reasonOf = (command: string) => {
  const result = validateBashCommand(command);
  return result.allowed ? null : result.reason;
};

describe('package managers and runners', () => {
  it.each([
    'npm ci',
    'npm run lint -- --fix',
    'npm exec vitest -- run',
    'npm config get registry',
    'npx --yes prettier --check .',
    'npx -p typescript tsc --version',
    // -c scripts and yarn exec lines are validated with the full rules, allowlist included.
    'npx -c "npm test && git status"',
    'pnpm --filter web build',
    'pnpm exec tsc -p .',
    'pnpm dlx create-vite app',
    // `pnpm rm lodash` would match the published textual pattern 'rm\\s' (as in the reference).
    'pnpm remove lodash',
    'yarn add -D vitest',
    'yarn dlx tsc --version',
    'yarn run vitest',
    'yarn exec "git status"',
    'npm test -- --shell',
    'yarn --cwd packages/web build',
  ])('allows %j', (command) => {
    expect(reasonOf(command)).toBeNull();
  });

  it.each([
    ['npx kill 1', /kill/],
    ['npx --package=x -- pkill node', /pkill/],
    ['npm x -- rm -rf x', /rm\\s/],
    ['npx tsx -e "1"', /interpreter/],
    ['npx python3 x.py', /interpreter/],
    ['npx -c "rm -rf x"', /rm\\s/],
    ['npx -c "vitest run"', /'vitest' is not in the allowed command list/],
    ['npx --call="kill 1"', /kill/],
    ['pnpm exec sudo ls', /sudo/],
    ['pnpm -c exec "rm -rf x"', /rm\\s/],
    ['pnpm node x.js', /interpreter/],
    ['yarn exec "rm -rf x"', /rm\\s/],
    ['yarn run rm -rf x', /rm\\s/],
    ['yarn rm -rf x', /rm\\s/],
    ['npm publish', /agents never/],
    ['yarn npm publish', /publishes/],
    ['npm config set script-shell /tmp/x', /npm config/],
    ['npm set script-shell /tmp/x', /npm set/],
    ['npm test --script-shell=/tmp/x', /--script-shell/],
    ['npm explore lodash -- id', /opens a shell/],
    ['npm test "$X"', /computed at run time/],
    ['npm exec -- "$X" -rf x', /computed at run time/],
    ['npx -- "$(echo rm)" x', /computed at run time/],
    ['npx ./evil.sh', /local path/],
    ['npx bash -c "rm -rf x"', /rm\\s/],
    ['npx sh evil.sh', /script file/],
    ['npm test --script-sh=/tmp/x', /changes the program/],
    ['npm --userconfig=/tmp/x.npmrc test', /changes the program/],
    ['pnpm --config.script-shell=/tmp/x test', /changes the program/],
    ['npm --prefix .git/hooks exec -- cp x y', /protected/],
    ['yarn --cwd ~/.ssh install', /protected/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });
});
