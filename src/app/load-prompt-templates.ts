import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_ROLES } from '../domain/index.ts';
import type { PromptTemplates } from '../engine/context-assembly/assemble-agent-context.ts';
import { parsePromptTemplate } from '../engine/context-assembly/parse-prompt-template.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';

/** Where a repository keeps its prompt templates, relative to its root (docs/prompt-templates.md). */
export const PROMPT_TEMPLATES_DIR = join('.flotilla', 'prompts');

export type PromptTemplatesLoad =
  | { ok: true; templates: PromptTemplates; paths: string[] }
  | { ok: false; errors: string[] };

/**
 * Reads and checks `.flotilla/prompts/<role>.md` for every role (docs/prompt-templates.md), before anything
 * starts: `flotilla run` refuses to start and `flotilla doctor` reports when any is malformed or uses an
 * unknown variable. A missing file is no template (the built-in prompt); an unreadable one is an error.
 * Errors name the file (relative to the repository) with line and column.
 */
export async function loadPromptTemplates(repoRoot: string): Promise<PromptTemplatesLoad> {
  const templates: PromptTemplates = {};
  const paths: string[] = [];
  const errors: string[] = [];
  for (const role of AGENT_ROLES) {
    const path = join(PROMPT_TEMPLATES_DIR, `${role}.md`);
    let text: string;
    try {
      text = await readFile(join(repoRoot, path), 'utf8');
    } catch (error) {
      if (hasErrorCode(error, 'ENOENT')) continue;
      errors.push(`${path}: cannot read the prompt template: ${messageOf(error)}`);
      continue;
    }
    const parsed = parsePromptTemplate(text, role, path);
    if (parsed.ok) {
      templates[role] = parsed.template;
      paths.push(path);
    } else errors.push(...parsed.errors);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, templates, paths };
}
