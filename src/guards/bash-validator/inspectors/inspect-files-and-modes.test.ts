import { describe, expect, it } from 'vitest';
import { validateBashCommand } from '../validate-bash-command.ts';

const reasonOf = (command: string) => {
  const result = validateBashCommand(command);
  return result.allowed ? null : result.reason;
};

describe('chmod', () => {
  it.each([
    'chmod +x a.sh',
    'chmod 755 a.sh',
    'chmod u+w,g-w f',
    'chmod go-w f',
    'chmod 0644 f',
    'chmod o-w f',
  ])('allows %j', (command) => {
    expect(reasonOf(command)).toBeNull();
  });

  it.each([
    ['chmod -R 755 d', /chmod\\s\+-R/],
    ['chmod -vR 755 d', /chmod\\s\+-R/],
    ['chmod 777 f', /chmod\\s\+777/],
    ['chmod 1777 d', /writable by everyone/],
    ['chmod 602 f', /writable by everyone/],
    ['chmod go+w f', /o\\\+w/],
    ['chmod o=u f', /o\\\+w/],
    ['chmod ugo+rw f', /o\\\+w/],
    ['chmod a+w f', /a\\\+w/],
    ['chmod "$MODE" f', /computed at run time/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });
});

describe('file writers and redirections', () => {
  it.each([
    'cp -r src dist',
    'mv a.txt b.txt',
    'echo x | tee -a notes.txt',
    'echo x > out.txt 2> err.txt',
    'npm test &> test.log',
    'echo x >&2',
    'git status 2>&1 | head',
  ])('allows %j', (command) => {
    expect(reasonOf(command)).toBeNull();
  });

  it.each([
    ['cp x --target-directory=.git/hooks', /protected/],
    ['mv x ~/.ssh/authorized_keys', /protected/],
    ['tee .claude/settings.json < x', /protected/],
    ['cp "$SRC" dest', /computed at run time/],
    ['echo x >| .git/config', /protected/],
    ['echo x &>> .flotilla/config.json', /protected/],
    ['echo x > .git/hook{s,}/pre-commit', /protected/],
    ['echo x > "$(printf .git)/config"', /computed at run time/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });
});

describe('dangerous variables', () => {
  it.each(['FOO=1 npm test', 'NODE_ENV=production npm run build', 'DEBUG=* npx vitest run', 'x=1; echo $x'])(
    'allows %j',
    (command) => {
      expect(reasonOf(command)).toBeNull();
    },
  );

  it.each([
    ['GIT_EXTERNAL_DIFF=id git diff', /GIT_EXTERNAL_DIFF/],
    ['HOME=/tmp/h git status', /HOME/],
    ['NODE_OPTIONS="--require ./x.js" npm test', /NODE_OPTIONS/],
    ['YARN_YARN_PATH=x.js yarn', /YARN_YARN_PATH/],
    ['PATH=/tmp; git status', /PATH/],
    ['GIT_PAGER=id; git log', /GIT_PAGER/],
  ])('blocks %j', (command, reason) => {
    expect(reasonOf(command)).toMatch(reason);
  });
});
