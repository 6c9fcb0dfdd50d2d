import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_ROLES, type AgentRole, WORK_ITEM_MODES, type WorkItemMode } from '../domain/index.ts';
import type { PromptTemplates } from '../engine/context-assembly/assemble-agent-context.ts';
import { parsePromptTemplate } from '../engine/context-assembly/parse-prompt-template.ts';
import { editDistance } from '../shared/edit-distance.ts';
import { hasErrorCode } from '../shared/has-error-code.ts';
import { messageOf } from '../shared/message-of.ts';

/** Where a repository keeps its prompt templates, relative to its root (docs/prompt-templates.md). */
export const PROMPT_TEMPLATES_DIR = join('.flotilla', 'prompts');

export type PromptTemplatesLoad =
  | { ok: true; templates: PromptTemplates; paths: string[] }
  | { ok: false; errors: string[] };

/** Each template file and the role whose variables it may use: the roles', then the modes' (implementor). */
const TEMPLATE_FILES: readonly { name: AgentRole | WorkItemMode; role: AgentRole }[] = [
  ...AGENT_ROLES.map((role) => ({ name: role, role })),
  ...WORK_ITEM_MODES.map((mode) => ({ name: mode, role: 'implementor' as const })),
];

/**
 * Reads and checks `.flotilla/prompts/<role>.md` for every role and `<mode>.md` for the implementor's modes
 * (`investigate`, `refine`; docs/prompt-templates.md), before anything
 * starts: `flotilla run` refuses to start and `flotilla doctor` reports when any is malformed or uses an
 * unknown variable. A missing file is no template (the built-in prompt); an unreadable one is an error, and
 * so is a `.md` file no role or mode is named after (a misspelt `implementer`): a template that would silently never
 * apply. Errors name the file (relative to the repository) with line and column.
 */
export async function loadPromptTemplates(repoRoot: string): Promise<PromptTemplatesLoad> {
  const templates: PromptTemplates = {};
  const paths: string[] = [];
  const errors: string[] = await findStrayTemplates(repoRoot);
  for (const { name, role } of TEMPLATE_FILES) {
    const path = join(PROMPT_TEMPLATES_DIR, `${name}.md`);
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
      templates[name] = parsed.template;
      paths.push(path);
    } else errors.push(...parsed.errors);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, templates, paths };
}

/** A Markdown file in the templates directory that no role or mode reads (its README aside). */
async function findStrayTemplates(repoRoot: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(repoRoot, PROMPT_TEMPLATES_DIR));
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT') || hasErrorCode(error, 'ENOTDIR')) return [];
    return [`${PROMPT_TEMPLATES_DIR}: cannot list the prompt templates: ${messageOf(error)}`];
  }
  const known = TEMPLATE_FILES.map(({ name }) => `${name}.md`);
  return names
    .filter((name) => name.endsWith('.md') && !known.includes(name) && name.toLowerCase() !== 'readme.md')
    .sort()
    .map((name) => {
      const closest = known
        .map((file) => ({ file, distance: editDistance(file, name.toLowerCase()) }))
        .sort((a, b) => a.distance - b.distance)[0];
      const hint = closest !== undefined && closest.distance <= 3 ? ` (did you mean ${closest.file}?)` : '';
      return `${join(PROMPT_TEMPLATES_DIR, name)}: no role or mode is named '${name.slice(0, -3)}', so this template would never be used${hint}; expected ${known.join(', ')}`;
    });
}
