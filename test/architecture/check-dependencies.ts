import { posix } from 'node:path';
import type { DependencyRules, FloorDefinition, KnownException } from './dependency-rules.ts';
import type { ImportReference } from './read-imports.ts';

export interface SourceFileImports {
  /** Repository-relative, with `/` separators. */
  path: string;
  imports: readonly ImportReference[];
}

export interface DependencyViolation {
  file: string;
  line: number;
  /** As written in the file (null: a computed specifier). */
  specifier: string | null;
  kind: ImportReference['kind'];
  /** The rule broken, in words. */
  rule: string;
}

export interface DependencyCheck {
  violations: DependencyViolation[];
  /** Exceptions no import needed any more: delete them from the table. */
  unusedExceptions: KnownException[];
}

/** Checks every import of every production file against the table; test files may import anything. */
export function checkDependencies(
  files: readonly SourceFileImports[],
  rules: DependencyRules,
): DependencyCheck {
  const violations: DependencyViolation[] = [];
  const usedExceptions = new Set<KnownException>();

  for (const file of files) {
    if (rules.testSupport(file.path)) continue;
    const floor = floorOf(file.path, rules);
    for (const reference of file.imports) {
      const broken = (rule: string) =>
        violations.push({
          file: file.path,
          line: reference.line,
          specifier: reference.specifier,
          kind: reference.kind,
          rule,
        });
      if (floor === undefined) {
        broken(`${file.path} belongs to no floor: add its folder to test/architecture/dependency-rules.ts`);
        break;
      }
      const specifier = reference.specifier;
      if (specifier === null) {
        broken('a computed module specifier cannot be checked: import a literal path');
      } else if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
        const rule = checkFileImport(file.path, floor, target, rules, usedExceptions);
        if (rule !== null) broken(rule);
      } else {
        const rule = checkPackageImport(floor, specifier, rules);
        if (rule !== null) broken(rule);
      }
    }
  }
  return {
    violations,
    unusedExceptions: rules.exceptions.filter((exception) => !usedExceptions.has(exception)),
  };
}

export function floorOf(path: string, rules: DependencyRules): FloorDefinition | undefined {
  return rules.floors.find((floor) =>
    floor.paths.some((prefix) => (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix)),
  );
}

/** One line per violation: where, what, and which rule. */
export function formatViolation(violation: DependencyViolation): string {
  const what = violation.specifier === null ? 'a computed specifier' : `'${violation.specifier}'`;
  return `${violation.file}:${violation.line} ${violation.kind} ${what}: ${violation.rule}`;
}

function checkFileImport(
  path: string,
  floor: FloorDefinition,
  target: string,
  rules: DependencyRules,
  usedExceptions: Set<KnownException>,
): string | null {
  if (rules.testSupport(target)) {
    const exception = findException(path, target, rules);
    if (exception === undefined) return `production code must not import test support (${target})`;
    usedExceptions.add(exception);
    return null;
  }
  const targetFloor = floorOf(target, rules);
  if (targetFloor === undefined) {
    return target.startsWith('src/')
      ? `${target} belongs to no floor: add its folder to test/architecture/dependency-rules.ts`
      : `${target} is outside src/: production code imports only src/ and packages`;
  }
  if (targetFloor === floor) return null;
  if (floor.mayImport === 'every floor' || floor.mayImport.includes(targetFloor.name)) return null;
  const exception = findException(path, target, rules);
  if (exception !== undefined) {
    usedExceptions.add(exception);
    return null;
  }
  const allowed = floor.mayImport.length === 0 ? 'nothing' : floor.mayImport.join(', ');
  return `${floor.name} must not import ${targetFloor.name} (${floor.name}: ${floor.role}; it may import ${allowed})`;
}

/** The known exception tolerating the import of `target` from `path`, if any. */
function findException(path: string, target: string, rules: DependencyRules): KnownException | undefined {
  return rules.exceptions.find((candidate) =>
    candidate.edges.some(({ from, to }) => path.startsWith(from) && target.startsWith(to)),
  );
}

function checkPackageImport(
  floor: FloorDefinition,
  specifier: string,
  rules: DependencyRules,
): string | null {
  if (specifier.startsWith('node:')) {
    return importsNothing(floor) ? `${floor.name} imports nothing, not even Node built-ins` : null;
  }
  const name = packageName(specifier);
  if (rules.testOnlyPackages.includes(name))
    return `production code must not import the test-only package ${name}`;
  const rule = rules.packages[name];
  if (rule === undefined) {
    return `package ${name} is not in the package table of test/architecture/dependency-rules.ts: say which floors may import it`;
  }
  if (rule.floors === 'all but domain') {
    return importsNothing(floor) ? `${floor.name} imports nothing, not even ${name}` : null;
  }
  if (rule.floors.includes(floor.name)) return null;
  return `only ${rule.floors.join(', ')} may import ${name}, not ${floor.name}`;
}

function importsNothing(floor: FloorDefinition): boolean {
  return floor.mayImport !== 'every floor' && floor.mayImport.length === 0;
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
