import { describe, expect, it } from 'vitest';
import { validateBashCommand } from '../validate-bash-command.ts';
import { findAwkProblem } from './inspect-awk.ts';
import { findSedProblem } from './inspect-sed.ts';

const reasonOf = (command: string) => {
  const result = validateBashCommand(command);
  return result.allowed ? null : result.reason;
};

describe('sed script scanner', () => {
  it.each([
    's/a/b/g',
    's#/usr#/opt#2',
    '1,20p',
    '/^$/d',
    '$!N; s/\\n/ /',
    '0,/re/{s//X/;b}',
    '/start/,/end/ { /x/d }',
    'y/abc/xyz/',
    '1i\\\nheader',
    '$a footer text',
    ':top; s/aa/a/; t top',
    's/x/y/w /dev/stdout',
    '/x/ r include.txt',
    '# comment\np',
    '1~2d; 5q; l 40',
  ])('accepts %j', (script) => {
    expect(findSedProblem(script)).toBeNull();
  });

  it.each([
    ['e rm -rf x', /'e' command/],
    ['1e id', /'e' command/],
    ['/x/ e id', /'e' command/],
    ['s/.*/id/e', /s\/\/\/e/],
    ['s|x|id|ge', /s\/\/\/e/],
    ['s/x/y/w .git/hooks/pre-commit', /protected/],
    ['w ~/.gitconfig', /protected/],
    ['s/x/y', /could not be followed/],
    ['k', /could not be followed/],
  ])('refuses %j', (script, reason) => {
    expect(findSedProblem(script)).toMatch(reason);
  });

  it('checks -e scripts, -f files, in-place targets and run-time scripts', () => {
    expect(reasonOf("sed -n -e 'p' -e '1e id' f")).toMatch(/'e' command/);
    expect(reasonOf("sed --expression='s/x/id/e' f")).toMatch(/s\/\/\/e/);
    expect(reasonOf('sed -f script.sed f')).toMatch(/script file/);
    expect(reasonOf("sed -i 's/a/b/' ~/.npmrc")).toMatch(/protected/);
    expect(reasonOf('sed "$SCRIPT" f')).toMatch(/computed at run time/);
    expect(reasonOf("sed 's/a/b/' f -i")).toBeNull();
  });
});

describe('awk program checks', () => {
  it.each([
    '{ print $1 }',
    '/error|warn/ { n++ } END { print n }',
    '$3 > 10 || $4 < 2 { print }',
    'BEGIN { FS = ":" } $3 > 10 { print $1 }',
    '{ x = "system(1)"; print x }',
    '{ print a / b / c }',
    '# system("id")\n{ print }',
  ])('accepts %j', (program) => {
    expect(findAwkProblem(program)).toBeNull();
  });

  it.each([
    ['BEGIN { system("id") }', /system/],
    ['{ system ("id") }', /system/],
    ['{ print | "sort" }', /pipes/],
    ['{ print |& "cat" }', /pipes/],
    ['BEGIN { while (("ls" | getline l) > 0) print l }', /pipes/],
    ['BEGIN { f = "system"; @f("id") }', /'@'/],
    ['@load "filefuncs"', /'@'/],
    ['{ print > ".git/hooks/pre-commit" }', /protected|writes to a file/],
    ['BEGIN { f = ".gi" "t/hooks/x"; print "id" > f }', /writes to a file/],
    ['{ printf "%s", $0 >> "/tmp/out" }', /writes to a file/],
    ['{ x = 1 / 2; system("id"); y = 3 / 4 }', /system/],
  ])('refuses %j', (program, reason) => {
    expect(findAwkProblem(program)).toMatch(reason);
  });

  it('refuses program files, extensions and run-time programs, and checks -e/--source programs', () => {
    expect(reasonOf('awk -f p.awk f')).toMatch(/not allowed/);
    expect(reasonOf('gawk -l ordchr f')).toMatch(/not allowed/);
    expect(reasonOf('awk "$PROG" f')).toMatch(/computed at run time/);
    expect(reasonOf("awk -F: -v n=1 '{ print $n }' /etc/passwd")).toBeNull();
    expect(reasonOf('gawk -e \'BEGIN { system("id") }\'')).toMatch(/system/);
  });
});

describe('other text tools', () => {
  it('blocks programs run by rg and sort, and protected outputs', () => {
    expect(reasonOf('rg --pre=cat foo')).toMatch(/runs a program/);
    expect(reasonOf('rg --hostname-bin=id foo')).toMatch(/runs a program/);
    expect(reasonOf('sort --compress-prog=id f')).toMatch(/compress-program/);
    expect(reasonOf('sort -o .git/config f')).toMatch(/protected/);
    expect(reasonOf('uniq f .git/config')).toMatch(/protected/);
    expect(reasonOf('sort -o sorted.txt f && uniq sorted.txt out.txt')).toBeNull();
  });

  it('blocks subscripted names for printf -v and test -v', () => {
    expect(reasonOf("printf -v 'a[$(id)]' x")).toMatch(/printf -v/);
    expect(reasonOf('printf -v out "%s" x')).toBeNull();
    expect(reasonOf("test -v 'a[$(id)]'")).toMatch(/test -v/);
    expect(reasonOf("[[ -v 'a[$(id)]' ]]")).toMatch(/-v/);
    expect(reasonOf('test -v HOME && echo set')).toBeNull();
  });
});
