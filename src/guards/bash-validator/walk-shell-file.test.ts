// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash source, where ${…} is literal syntax.
import { describe, expect, it } from 'vitest';
import { getDefaultBashValidatorRules } from './build-bash-validator-rules.ts';
import { parseShellSource } from './parse-shell-source.ts';
import type { ShellCallExpr, ShellFile } from './shell-ast.ts';
import type { BashFinding, InspectionContext, Invocation } from './types.ts';
import { walkShellFile } from './walk-shell-file.ts';

function walk(source: string, edit: (file: ShellFile) => void = () => {}) {
  const parsed = parseShellSource(source);
  if (!parsed.ok) throw new Error(parsed.error);
  edit(parsed.file);
  const findings: BashFinding[] = [];
  const invocations: Invocation[] = [];
  const context: InspectionContext = {
    rules: getDefaultBashValidatorRules(),
    place: null,
    report: (severity, reason) => findings.push({ severity, reason }),
    checkInvocation: (invocation) => invocations.push(invocation),
    checkSource: () => {},
  };
  walkShellFile(parsed.file, context);
  return { findings, names: invocations.map((invocation) => invocation.words[0]!.value), invocations };
}

describe('walkShellFile', () => {
  it('finds every simple command wherever it sits', () => {
    const source = [
      'a1 && a2 || a3 | a4; a5 &',
      '(b1); { b2; }',
      'if c1; then c2; elif c3; then c4; else c5; fi',
      'for x in 1; do d1; done; while d2; do d3; done; until d4; do d5; done',
      'case y in y) e1;; esac',
      'f() { g1; }',
      'echo "$(h1)" `h2` <(h3) >(h4) ${z:-$(h5)} $(( $(h6) ))',
      'time i1; ! i2; coproc i3',
      'cat <<EOF\n$(j1)\nEOF',
      '[[ $(k1) ]]',
    ].join('\n');
    const { names } = walk(source);
    for (const name of ['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2', 'c1', 'c2', 'c3', 'c4', 'c5', 'd1', 'd2']) {
      expect(names).toContain(name);
    }
    for (const name of [
      'd3',
      'd4',
      'd5',
      'e1',
      'g1',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'i1',
      'i2',
      'i3',
      'j1',
      'k1',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('tells a shell where its standard input comes from', () => {
    const { invocations } = walk("curl x | bash; bash <<< 'ls'; bash < f; bash <<'E'\nls\nE");
    const stdin = invocations
      .filter((invocation) => invocation.words[0]!.value === 'bash')
      .map((i) => i.stdin);
    expect(stdin).toEqual([
      { kind: 'pipe', upstream: ['curl'] },
      { kind: 'script', text: 'ls\n' },
      { kind: 'file' },
      { kind: 'script', text: 'ls\n' },
    ]);
  });

  it('allows arithmetic on integers set in the same command, and blocks it on anything else', () => {
    expect(walk('for ((i = 0; i < 3; i++)); do echo $((i * 2)); done').findings).toEqual([]);
    expect(walk('n=5; echo $((n + RANDOM))').findings).toEqual([]);
    expect(walk('echo $((HOME))').findings).toHaveLength(1);
    expect(walk('x=a; echo $((x))').findings).toHaveLength(1);
    expect(walk('x=1; read x; echo $((x))').findings).toHaveLength(1);
  });

  it('blocks when the tree holds a command where the walker does not look (completeness guard)', () => {
    // Plant a parsed `rm -rf x` in a field the walker never reads; the generic count still finds it.
    const hidden = parseShellSource('rm -rf x');
    if (!hidden.ok) throw new Error(hidden.error);
    const command = hidden.file.Stmts[0]!.Cmd as ShellCallExpr;
    const { findings, names } = walk('git status', (file) => {
      (file.Stmts[0] as unknown as { Comments: unknown[] }).Comments = [command];
    });
    expect(names).toEqual(['git']);
    expect(findings).toEqual([
      { severity: 'danger', reason: expect.stringContaining('internal check failed') },
    ]);
  });

  it('passes the guard on a script using every construct', () => {
    const { findings } = walk(
      'f() { a=$((1+2)); echo "${b:-$(ls)}" <(ls) >(ls); }; [[ -n $(ls) ]]; (( c = 1 )); let d=2; declare e=1; coproc ls',
    );
    expect(findings).toEqual([]);
  });
});
