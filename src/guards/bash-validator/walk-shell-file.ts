import {
  ArithmeticVariableFacts,
  IDENTIFIER,
  INTEGER,
  isIntegerWord,
  NUMERIC_SPECIAL_PARAMETERS,
} from './arithmetic-variable-facts.ts';
import { commandBaseName, DYNAMIC_MARK } from './command-word.ts';
import { countGuardedNodes } from './count-guarded-nodes.ts';
import { findDangerousVariable } from './dangerous-variables.ts';
import { evaluateWord } from './evaluate-word.ts';
import { displayValue } from './messages.ts';
import {
  SHELL_OP,
  type ShellArithmCmd,
  type ShellArithmExp,
  type ShellAssign,
  type ShellBinaryArithm,
  type ShellBinaryCmd,
  type ShellBinaryTest,
  type ShellCallExpr,
  type ShellCaseClause,
  type ShellCoprocClause,
  type ShellCStyleLoop,
  type ShellDblQuoted,
  type ShellDeclClause,
  type ShellFile,
  type ShellForClause,
  type ShellFuncDecl,
  type ShellIfClause,
  type ShellLetClause,
  type ShellLit,
  type ShellNode,
  type ShellParamExp,
  type ShellParenArithm,
  type ShellProcSubst,
  type ShellStmt,
  type ShellStmtList,
  type ShellTestClause,
  type ShellTimeClause,
  type ShellUnaryArithm,
  type ShellUnaryTest,
  type ShellWhileClause,
  type ShellWord,
  type ShellWordIter,
} from './shell-ast.ts';
import { staticWordText } from './static-word-text.ts';
import type { CommandWord, InspectionContext, StdinSource } from './types.ts';
import { type RedirectWalk, walkRedirect } from './walk-redirect.ts';

const ARITHMETIC_TEST_OPS: ReadonlySet<number> = new Set([
  SHELL_OP.testEq,
  SHELL_OP.testNe,
  SHELL_OP.testLe,
  SHELL_OP.testGe,
  SHELL_OP.testLt,
  SHELL_OP.testGt,
]);

export interface ShellWalkResult {
  /** Byte ranges of heredoc bodies, which the whole-text pattern check blanks. */
  heredocByteRanges: Array<[number, number]>;
}

/**
 * Walks a parsed script and hands every simple command — wherever it sits: lists, pipelines, subshells,
 * blocks, if/for/while/case bodies, function bodies, `$(…)`, backticks, `<(…)`, `>(…)`, parameter
 * expansions, arithmetic, heredoc bodies — to `context.checkInvocation`. Structural findings (redirections
 * into protected paths, arithmetic injection, unsupported syntax) are reported directly. A final guard
 * compares the number of commands and substitutions visited with mvdan's own tree walk and blocks on any
 * difference (counted by a generic traversal of every field), so a construct this walker does not know
 * cannot slip through unvalidated.
 */
export function walkShellFile(file: ShellFile, context: InspectionContext): ShellWalkResult {
  const walker = new ShellFileWalker(context);
  walker.statements(file.Stmts, { kind: 'inherit' });
  walker.reportUnsafeArithmetic();
  const expected = countGuardedNodes(file);
  if (expected !== walker.visited) {
    context.report(
      'danger',
      `Blocked: internal check failed (inspected ${walker.visited} of ${expected} commands and expansions)`,
    );
  }
  return { heredocByteRanges: walker.heredocByteRanges };
}

class ShellFileWalker {
  visited = 0;
  readonly heredocByteRanges: Array<[number, number]> = [];
  private readonly variables = new ArithmeticVariableFacts();

  private readonly redirectWalk: RedirectWalk;

  constructor(private readonly context: InspectionContext) {
    this.redirectWalk = {
      context,
      wordNested: (word) => this.wordNested(word),
      heredocByteRanges: this.heredocByteRanges,
    };
  }

  statements(list: readonly ShellStmt[] | null, stdin: StdinSource): void {
    for (const stmt of list ?? []) this.statement(stmt, stdin);
  }

  /** Returns the command names of the statement (for pipeline upstream reporting). */
  private statement(stmt: ShellStmt | null, inheritedStdin: StdinSource): string[] {
    if (!stmt) return [];
    let stdin = inheritedStdin;
    for (const redirect of stmt.Redirs ?? []) stdin = walkRedirect(redirect, stdin, this.redirectWalk);
    if (!stmt.Cmd) return [];
    return this.command(stmt.Cmd, stdin);
  }

  private command(cmd: ShellNode, stdin: StdinSource): string[] {
    const kind = cmd.type;
    switch (kind) {
      case 'CallExpr':
        return this.callExpr(cmd as ShellCallExpr, stdin);
      case 'BinaryCmd':
        return this.binaryCmd(cmd as ShellBinaryCmd, stdin);
      case 'DeclClause':
        return this.declClause(cmd as ShellDeclClause, stdin);
      case 'TimeClause':
        return this.statement((cmd as ShellTimeClause).Stmt, stdin);
      case 'LetClause': {
        this.visited += 1;
        this.invoke([literalWord('let')], [], stdin);
        for (const expression of (cmd as ShellLetClause).Exprs ?? []) this.arithmetic(expression);
        return ['let'];
      }
      case 'CoprocClause': {
        this.visited += 1;
        const clause = cmd as ShellCoprocClause;
        if (clause.Name) this.wordNested(clause.Name);
        this.invoke([literalWord('coproc')], [], stdin);
        this.statement(clause.Stmt, { kind: 'inherit' });
        return ['coproc'];
      }
      default:
        this.compoundCommand(cmd, stdin);
        return [];
    }
  }

  /** Blocks, subshells, if/while/for/case, function bodies, `((…))` and `[[…]]`: no command name of their own. */
  private compoundCommand(cmd: ShellNode, stdin: StdinSource): void {
    switch (cmd.type) {
      case 'Block':
      case 'Subshell':
        this.statements((cmd as ShellStmtList).Stmts, stdin);
        return;
      case 'IfClause':
        this.ifClause(cmd as ShellIfClause, stdin);
        return;
      case 'WhileClause': {
        const loop = cmd as ShellWhileClause;
        this.statements(loop.Cond, stdin);
        this.statements(loop.Do, stdin);
        return;
      }
      case 'ForClause':
        this.forClause(cmd as ShellForClause, stdin);
        return;
      case 'CaseClause': {
        const clause = cmd as ShellCaseClause;
        this.wordNested(clause.Word);
        for (const item of clause.Items ?? []) {
          for (const pattern of item.Patterns ?? []) this.wordNested(pattern);
          this.statements(item.Stmts, stdin);
        }
        return;
      }
      case 'FuncDecl':
        this.visited += 1;
        this.statement((cmd as ShellFuncDecl).Body, { kind: 'inherit' });
        return;
      case 'ArithmCmd':
        this.visited += 1;
        this.arithmetic((cmd as ShellArithmCmd).X);
        return;
      case 'TestClause':
        this.visited += 1;
        this.testExpression((cmd as ShellTestClause).X);
        return;
      default:
        this.context.report('danger', `Blocked: unsupported shell construct (${cmd.type})`);
    }
  }

  private binaryCmd(cmd: ShellBinaryCmd, stdin: StdinSource): string[] {
    if (cmd.Op === SHELL_OP.pipe || cmd.Op === SHELL_OP.pipeAll) {
      const upstream = this.statement(cmd.X, stdin);
      const downstream = this.statement(cmd.Y, { kind: 'pipe', upstream });
      return [...upstream, ...downstream];
    }
    return [...this.statement(cmd.X, stdin), ...this.statement(cmd.Y, stdin)];
  }

  private ifClause(clause: ShellIfClause | null, stdin: StdinSource): void {
    for (let current = clause; current; current = current.Else) {
      this.statements(current.Cond, stdin);
      this.statements(current.Then, stdin);
    }
  }

  private forClause(clause: ShellForClause, stdin: StdinSource): void {
    const loopKind = clause.Loop.type;
    if (loopKind === 'WordIter') {
      const iter = clause.Loop as ShellWordIter;
      let allIntegers = (iter.Items ?? []).length > 0 && !clause.Select;
      for (const item of iter.Items ?? []) {
        this.wordNested(item);
        const values = evaluateWord(item);
        if (!values || values.some((value) => value.dynamic || !INTEGER.test(value.value)))
          allIntegers = false;
      }
      this.variables.recordAssignment(iter.Name.Value, allIntegers);
    } else if (loopKind === 'CStyleLoop') {
      const loop = clause.Loop as ShellCStyleLoop;
      this.arithmetic(loop.Init);
      this.arithmetic(loop.Cond);
      this.arithmetic(loop.Post);
    } else {
      this.context.report('danger', `Blocked: unsupported loop form (${loopKind})`);
    }
    this.statements(clause.Do, stdin);
  }

  private callExpr(call: ShellCallExpr, stdin: StdinSource): string[] {
    this.visited += 1;
    const assignedNames: string[] = [];
    for (const assign of call.Assigns ?? []) {
      const name = this.assign(assign);
      if (name !== null) assignedNames.push(name);
    }
    const words: CommandWord[] = [];
    for (const arg of call.Args ?? []) {
      this.wordNested(arg);
      const evaluated = evaluateWord(arg);
      if (!evaluated) {
        this.context.report('danger', 'Blocked: brace expansion produces too many words to check');
        return [];
      }
      words.push(...evaluated);
    }
    if (words.length === 0) {
      // A bare assignment lasts for the rest of the script.
      for (const name of assignedNames) {
        const problem = findDangerousVariable(name);
        if (problem) this.context.report('danger', problem);
      }
      return [];
    }
    this.variables.recordBuiltinAssignments(words);
    this.invoke(words, assignedNames, stdin);
    return words[0]!.dynamic ? [] : [commandBaseName(words[0]!.value)];
  }

  private invoke(words: CommandWord[], assignedNames: string[], stdin: StdinSource): void {
    this.context.checkInvocation({ words, assignedNames, stdin, exemptFromAllowlist: false, via: [] });
  }

  private declClause(clause: ShellDeclClause, stdin: StdinSource): string[] {
    this.visited += 1;
    const variant = clause.Variant.Value;
    const words: CommandWord[] = [literalWord(variant)];
    let integerAttribute = false;
    for (const arg of clause.Args ?? []) {
      if (arg.Naked && !arg.Name && arg.Value) {
        this.wordNested(arg.Value);
        const evaluated = evaluateWord(arg.Value) ?? [];
        for (const word of evaluated) {
          if (word.dynamic) {
            this.context.report(
              'danger',
              `Blocked: '${variant}' with a name or option computed at run time can evaluate a subscript`,
            );
          }
          if (/^[-+][a-zA-Z]*i/.test(word.value)) integerAttribute = true;
          words.push(word);
        }
        continue;
      }
      const name = this.assign(arg);
      if (name === null) continue;
      const problem = findDangerousVariable(name);
      if (problem) this.context.report('danger', problem);
      const value = arg.Value ? (evaluateWord(arg.Value)?.[0] ?? null) : null;
      if (integerAttribute && arg.Value && (!value || value.dynamic || !INTEGER.test(value.value))) {
        this.context.report(
          'danger',
          `Blocked: '${variant} -i ${name}=…' evaluates the value as arithmetic, which can run commands`,
        );
      }
      words.push(literalWord(arg.Naked ? name : `${name}=${value ? displayValue(value.value) : ''}`));
    }
    this.invoke(words, [], stdin);
    return [variant];
  }

  /** Walks an assignment and records what kind of value it stores. Returns the variable name. */
  private assign(assign: ShellAssign): string | null {
    const name = assign.Name?.Value ?? null;
    if (assign.Index) this.arithmetic(assign.Index);
    let integer = false;
    if (assign.Value) {
      this.wordNested(assign.Value);
      integer = isIntegerWord(assign.Value);
    }
    if (assign.Array) {
      integer = false;
      for (const element of assign.Array.Elems ?? []) {
        if (element.Index) this.arithmetic(element.Index);
        if (element.Value) this.wordNested(element.Value);
      }
    }
    if (name !== null && !(assign.Naked && !assign.Value && !assign.Array))
      this.variables.recordAssignment(name, integer);
    return name;
  }

  // ---- words and expansions -------------------------------------------------------------------

  private wordNested(word: ShellWord | null): void {
    if (!word) return;
    for (const part of word.Parts ?? []) this.wordPart(part);
  }

  private wordPart(part: ShellNode): void {
    const kind = part.type;
    switch (kind) {
      case 'Lit':
      case 'SglQuoted':
      case 'ExtGlob':
        return;
      case 'DblQuoted':
        for (const inner of (part as ShellDblQuoted).Parts ?? []) this.wordPart(inner);
        return;
      case 'ParamExp':
        this.paramExp(part as ShellParamExp);
        return;
      case 'CmdSubst':
      case 'ProcSubst':
        this.visited += 1;
        this.statements((part as ShellProcSubst).Stmts, { kind: 'inherit' });
        return;
      case 'ArithmExp':
        this.visited += 1;
        this.arithmetic((part as ShellArithmExp).X);
        return;
      default:
        this.context.report('danger', `Blocked: unsupported word part (${kind})`);
    }
  }

  private paramExp(expansion: ShellParamExp): void {
    this.visited += 1;
    const name = expansion.Param?.Value ?? '';
    const indexIsAll = expansion.Index !== null && this.isAllIndex(expansion.Index);
    if (expansion.Excl && expansion.Names === 0 && !indexIsAll) {
      this.context.report(
        'danger',
        `Blocked: indirect expansion \${!${name}} can evaluate a subscript hidden in a variable, which runs commands`,
      );
    }
    if (expansion.Exp?.Op === SHELL_OP.paramExpAt && expansion.Exp.Word) {
      const operator = staticWordText(expansion.Exp.Word);
      if (operator === null || operator.includes('P')) {
        this.context.report(
          'danger',
          `Blocked: \${${name}@P} expands a variable as a prompt string, which runs command substitutions`,
        );
      }
    }
    if (expansion.Index && !indexIsAll) this.arithmetic(expansion.Index);
    if (expansion.Slice) {
      this.arithmetic(expansion.Slice.Offset);
      this.arithmetic(expansion.Slice.Length);
    }
    if (expansion.Repl) {
      this.wordNested(expansion.Repl.Orig);
      this.wordNested(expansion.Repl.With);
    }
    if (expansion.Exp?.Word) this.wordNested(expansion.Exp.Word);
  }

  private isAllIndex(index: ShellNode): boolean {
    if (index.type !== 'Word') return false;
    const text = staticWordText(index as ShellWord);
    return text === '@' || text === '*';
  }

  // ---- arithmetic -------------------------------------------------------------------------------

  /**
   * Bash evaluates variables used in arithmetic recursively, and an array subscript inside their value
   * (`x='a[$(rm -rf ~)]'; echo $((x))`) runs a command substitution. Variables referenced here must be
   * provably integers; the check runs after the walk, when all assignments are known.
   */
  private arithmetic(node: ShellNode | null): void {
    if (!node) return;
    const kind = node.type;
    switch (kind) {
      case 'BinaryArithm': {
        const binary = node as ShellBinaryArithm;
        const target = this.arithmeticIdentifier(binary.X);
        const isAssignment =
          binary.Op === SHELL_OP.arithAssign ||
          (binary.Op >= SHELL_OP.arithAddAssign && binary.Op <= SHELL_OP.arithShrAssign);
        if (isAssignment && target !== null) {
          this.variables.recordAssignment(target, true);
          if (binary.Op !== SHELL_OP.arithAssign) this.variables.reference(target);
        } else {
          this.arithmetic(binary.X);
        }
        this.arithmetic(binary.Y);
        return;
      }
      case 'UnaryArithm': {
        const unary = node as ShellUnaryArithm;
        const target = this.arithmeticIdentifier(unary.X);
        if ((unary.Op === SHELL_OP.arithInc || unary.Op === SHELL_OP.arithDec) && target !== null) {
          this.variables.recordAssignment(target, true);
        }
        this.arithmetic(unary.X);
        return;
      }
      case 'ParenArithm':
        this.arithmetic((node as ShellParenArithm).X);
        return;
      case 'Word':
        this.arithmeticWord(node as ShellWord);
        return;
      default:
        this.context.report('danger', `Blocked: unsupported arithmetic construct (${kind})`);
    }
  }

  private arithmeticIdentifier(node: ShellNode): string | null {
    if (node.type !== 'Word') return null;
    const word = node as ShellWord;
    if (word.Parts.length !== 1 || word.Parts[0]!.type !== 'Lit') return null;
    const value = (word.Parts[0] as ShellLit).Value;
    return IDENTIFIER.test(value) ? value : null;
  }

  private arithmeticWord(word: ShellWord): void {
    for (const part of word.Parts ?? []) this.arithmeticPart(part);
  }

  private arithmeticPart(part: ShellNode): void {
    const kind = part.type;
    switch (kind) {
      case 'Lit':
        this.variables.referenceIdentifiers((part as ShellLit).Value);
        return;
      case 'SglQuoted':
        this.variables.referenceIdentifiers((part as ShellLit).Value);
        return;
      case 'DblQuoted':
        for (const inner of (part as ShellDblQuoted).Parts ?? []) this.arithmeticPart(inner);
        return;
      case 'ParamExp': {
        const expansion = part as ShellParamExp;
        const name = expansion.Param?.Value ?? '';
        if (!NUMERIC_SPECIAL_PARAMETERS.has(name) || expansion.Index || expansion.Exp || expansion.Repl) {
          if (!expansion.Length) this.variables.reference(name);
        }
        this.paramExp(expansion);
        return;
      }
      case 'CmdSubst':
      case 'ProcSubst':
        this.context.report(
          'danger',
          'Blocked: command output used in arithmetic is evaluated as an expression, which can run commands',
        );
        this.wordPart(part);
        return;
      default:
        this.wordPart(part);
    }
  }

  private testExpression(node: ShellNode | null): void {
    if (!node) return;
    const kind = node.type;
    switch (kind) {
      case 'BinaryTest': {
        const binary = node as ShellBinaryTest;
        if (ARITHMETIC_TEST_OPS.has(binary.Op)) {
          this.arithmeticOperand(binary.X);
          this.arithmeticOperand(binary.Y);
        } else {
          this.testExpression(binary.X);
          this.testExpression(binary.Y);
        }
        return;
      }
      case 'UnaryTest': {
        const unary = node as ShellUnaryTest;
        if (unary.Op === SHELL_OP.testVarSet) this.checkVariableNameOperand(unary.X, '[[ -v … ]]');
        this.testExpression(unary.X);
        return;
      }
      case 'ParenTest':
        this.testExpression((node as ShellParenArithm).X);
        return;
      case 'Word':
        this.wordNested(node as ShellWord);
        return;
      default:
        this.context.report('danger', `Blocked: unsupported test construct (${kind})`);
    }
  }

  private arithmeticOperand(node: ShellNode): void {
    if (node.type === 'Word') this.arithmeticWord(node as ShellWord);
    else this.testExpression(node);
  }

  private checkVariableNameOperand(node: ShellNode, where: string): void {
    const text = node.type === 'Word' ? staticWordText(node as ShellWord) : null;
    if (text === null || !IDENTIFIER.test(text)) {
      this.context.report(
        'danger',
        `Blocked: ${where} with a computed or subscripted name evaluates the subscript, which can run commands`,
      );
    }
  }

  reportUnsafeArithmetic(): void {
    for (const name of this.variables.unprovenReferences()) {
      this.context.report(
        'danger',
        `Blocked: arithmetic on '${displayValue(name)}' can run commands hidden in its value (a[$(…)]); ` +
          'only variables set to integers in the same command may be used in arithmetic',
      );
    }
  }
}

function literalWord(value: string): CommandWord {
  return { value, dynamic: value.includes(DYNAMIC_MARK), glob: false, masked: value };
}
