import type { AgentRole } from '../../domain/index.ts';
import { editDistance } from '../../shared/edit-distance.ts';
import { PROMPT_VARIABLES } from './prompt-variables.ts';

/** A parsed prompt template: literal text and the variables between it, in order. */
export interface PromptTemplate {
  role: AgentRole;
  /** Where it was read from, as messages name it (e.g. `.flotilla/prompts/implementor.md`). */
  path: string;
  parts: readonly PromptTemplatePart[];
}

export type PromptTemplatePart = { text: string } | { variable: string };

export type PromptTemplateParse = { ok: true; template: PromptTemplate } | { ok: false; errors: string[] };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses a role's prompt template (docs/prompt-templates.md). `{name}` is a variable and must be one of
 * the role's PROMPT_VARIABLES; `{{` and `}}` are a literal brace; any other `{` is malformed. Every problem
 * is reported as `<path>:<line>:<column>: <what> — <what to write instead>`, all of them at once.
 */
export function parsePromptTemplate(text: string, role: AgentRole, path: string): PromptTemplateParse {
  const known: readonly string[] = PROMPT_VARIABLES[role];
  const parts: PromptTemplatePart[] = [];
  const errors: string[] = [];
  let literal = '';
  let line = 1;
  let lineStart = 0;
  const at = (index: number) => `${path}:${line}:${index - lineStart + 1}`;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === '\n') {
      line++;
      lineStart = index + 1;
      literal += char;
      continue;
    }
    if (char === '}' && text[index + 1] === '}') {
      literal += '}';
      index++;
      continue;
    }
    if (char !== '{') {
      literal += char;
      continue;
    }
    if (text[index + 1] === '{') {
      literal += '{';
      index++;
      continue;
    }
    const close = text.indexOf('}', index + 1);
    const newline = text.indexOf('\n', index + 1);
    const name = close === -1 || (newline !== -1 && newline < close) ? null : text.slice(index + 1, close);
    if (name === null || !NAME.test(name)) {
      errors.push(`${at(index)}: ${malformedMessage(name, known)}`);
      literal += '{';
      continue;
    }
    if (!known.includes(name)) {
      errors.push(`${at(index)}: ${unknownVariableMessage(name, role, known)}`);
    } else {
      if (literal !== '') parts.push({ text: literal });
      literal = '';
      parts.push({ variable: name });
    }
    index = close;
  }
  if (literal !== '') parts.push({ text: literal });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, template: { role, path, parts } };
}

const listed = (known: readonly string[]) => known.map((variable) => `{${variable}}`).join(', ');

/** A `{` that does not start a variable (no `}` on its line, or not a name between them). */
function malformedMessage(name: string | null, known: readonly string[]): string {
  const shown = name === null ? '{' : `{${name}}`;
  return (
    `malformed template: ${shown} is not a variable — write {name} with one of ` +
    `${listed(known)}, or {{ for a literal {`
  );
}

/** A variable the role's template does not know, with the closest known one when it is near. */
function unknownVariableMessage(name: string, role: AgentRole, known: readonly string[]): string {
  const closest = known
    .map((variable) => ({ variable, distance: editDistance(variable.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const hint = closest !== undefined && closest.distance <= 3 ? ` (did you mean {${closest.variable}}?)` : '';
  return `unknown variable {${name}}${hint} — the ${role} template knows ${listed(known)}`;
}

/** The template with each variable replaced by its value ('' when the value is missing). */
export function renderPromptTemplate(
  template: PromptTemplate,
  variables: Readonly<Record<string, string>>,
): string {
  let rendered = '';
  for (const part of template.parts)
    rendered += 'text' in part ? part.text : (variables[part.variable] ?? '');
  return rendered.endsWith('\n') ? rendered : `${rendered}\n`;
}
