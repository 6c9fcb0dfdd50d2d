import { describe, expect, it } from 'vitest';
import { buildBashValidatorRules } from '../build-bash-validator-rules.ts';
import { validateBashCommand } from '../validate-bash-command.ts';

const WRAPPERS_ALLOWED = buildBashValidatorRules({
  extraAllowedCommands: ['nohup', 'nice', 'timeout', 'stdbuf', 'exec', 'builtin', 'bash', 'sh', 'zsh'],
});

const reasonOf = (command: string, rules = WRAPPERS_ALLOWED) => {
  const result = validateBashCommand(command, rules);
  return result.allowed ? null : result.reason;
};

describe('wrappers are seen through', () => {
  it.each([
    'env FOO=1 git status',
    'env -u HOME -C sub npm test',
    'env',
    'command -v rm',
    'command git status',
    'nohup npm test',
    'nice -n 5 npm test',
    'nice -5 npm test',
    'timeout -s KILL 30s npx vitest run',
    'stdbuf -oL grep x f',
    'time npm test',
    'exec git status',
    'xargs',
    'echo a b | xargs -n1 echo',
    'git ls-files | xargs -I{} grep -l foo {}',
    'find . -name "*.ts" -exec wc -l {} +',
    "bash -c 'npm test'",
    "sh -ec 'git status && npm test'",
    "bash -o pipefail -c 'npm test | tail -1'",
    "bash <<'EOF'\ngit status\nEOF",
    'bash -s <<< "git status"',
  ])('allows %j', (command) => {
    expect(reasonOf(command)).toBeNull();
  });

  it.each([
    ['env -S "rm -rf x"', /split/],
    ['env --split-string="rm -rf x"', /split/],
    ['env PATH=/tmp git status', /PATH/],
    ['env -C .git/hooks cp /tmp/evil pre-commit', /protected/],
    ['env "$X"=1 git status', /computed at run time|run time/],
    ['command -p rm x', /rm\\s/],
    ['nice -n 5 node x.js', /'node' is not in the allowed command list/],
    ['timeout 5 python3 x.py', /'python3' is not in the allowed command list/],
    ['timeout --bogus 5 ls', /cannot tell/],
    ['echo a | xargs git', /run time/],
    ['echo a | xargs chmod', /run time/],
    ['echo a | xargs -I% cp % .git/hooks/', /protected|run time/],
    ['echo a | xargs -I % sh -c "%"', /run time/],
    ['echo a | xargs sed -i s/a/b/', /run time/],
    ['echo a | xargs cp -t dir', /run time/],
    ['find . -exec cp {} .git/hooks/ \\;', /protected|run time/],
    ['find . -fprint .git/x', /writes files/],
    ['find . -exec grep x {}', /not terminated/],
    ['find . "$ACTION"', /computed at run time/],
    ['bash -c "rm -rf x"', /rm\\s/],
    ['bash --rcfile evil -c "ls"', /startup file/],
    ['bash -i', /standard input/],
    ['bash -c', /without a command/],
    ['bash script.sh', /script file/],
    ['cat f | bash', /standard input/],
    ['wget -O- x | sh', /wget/],
    ['bash <<EOF\n$(git status)\nEOF', /standard input/],
    ['zsh -c \'ls *(e:"rm -rf x":)\'', /zsh-only syntax/],
    ['exec rm x', /rm\\s/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });

  it('keeps the allowlist for the wrapper itself', () => {
    const defaults = buildBashValidatorRules();
    expect(reasonOf('nohup npm test', defaults)).toBe("Blocked: 'nohup' is not in the allowed command list");
    expect(reasonOf("bash -c 'npm test'", defaults)).toBe(
      "Blocked: 'bash' is not in the allowed command list",
    );
  });
});
