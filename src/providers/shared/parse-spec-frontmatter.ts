import { parseDocument } from 'yaml';
import type { SpecStatus } from '../../domain/index.ts';
import { messageOf } from '../../shared/message-of.ts';

export interface SpecFrontmatter {
  /** `draft` whenever the status is missing or unusable. */
  status: SpecStatus;
  /** Why the frontmatter could not be used (without the file name); null when it was fine or absent. */
  problem: string | null;
}

const STATUSES: readonly SpecStatus[] = ['draft', 'approved', 'deprecated'];
const EXPECTED = `expected "status: draft", "status: approved" or "status: deprecated"`;
const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/;

/**
 * A spec's status from its YAML frontmatter. The frontmatter must start the file: a `---` line (LF or CRLF;
 * a UTF-8 BOM is skipped), the YAML, then a closing `---` line. A file without frontmatter is a draft, as
 * is a frontmatter without `status`. Anything broken — invalid YAML, a frontmatter that is not a mapping,
 * a `status` that is not one of the three strings (quoted values are fine; case matters), a block that is
 * never closed — is a draft with a problem saying what was expected.
 */
export function parseSpecFrontmatter(content: string): SpecFrontmatter {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  const opening = OPENING.exec(text);
  if (opening === null) return { status: 'draft', problem: null };

  // CRLF → LF: YAML does not take a lone `\r` before the end of the text as a line break.
  const lines = text
    .slice(opening[0].length)
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const closingIndex = lines.findIndex((line) => CLOSING.test(line));
  if (closingIndex === -1) {
    return {
      status: 'draft',
      problem: `the frontmatter opened by "---" on line 1 is never closed: expected a "---" line after the YAML`,
    };
  }

  const yaml = lines.slice(0, closingIndex).join('\n');
  const document = parseDocument(yaml, { prettyErrors: true, uniqueKeys: true });
  const [error] = document.errors;
  if (error !== undefined) {
    const reason = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
    // +1: the YAML starts on the file's second line.
    const line = error.linePos?.[0].line;
    const where = line === undefined ? '' : ` (line ${line + 1})`;
    return { status: 'draft', problem: `invalid YAML in the frontmatter${where}: ${reason}; ${EXPECTED}` };
  }

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (caught) {
    const reason = messageOf(caught);
    return { status: 'draft', problem: `unreadable YAML in the frontmatter: ${reason}; ${EXPECTED}` };
  }
  if (value === null || value === undefined) return { status: 'draft', problem: null };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      status: 'draft',
      problem: `the frontmatter is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not "key: value" lines; ${EXPECTED}`,
    };
  }
  if (!('status' in value)) return { status: 'draft', problem: null };

  const status: unknown = (value as { status: unknown }).status;
  if (typeof status === 'string' && (STATUSES as readonly string[]).includes(status)) {
    return { status: status as SpecStatus, problem: null };
  }
  return { status: 'draft', problem: `status is ${describe(status)}; ${EXPECTED}` };
}

function describe(value: unknown): string {
  if (value === null) return 'empty';
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}
