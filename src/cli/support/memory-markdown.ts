import { AGENT_NOTE_LIMITS, type Memory } from '../../domain/index.ts';

/** The title `flotilla memory export` writes and `import` skips. */
const TITLE = '# Flotilla memories';

/**
 * The memories as Markdown a team can commit (`flotilla memory export`): one `## <topic>` section per
 * memory, sorted by topic (stable diffs), its text below, who stored it last in an HTML comment.
 */
export function formatMemoriesMarkdown(memories: readonly Memory[]): string {
  const sorted = [...memories].sort((a, b) => a.topic.localeCompare(b.topic));
  const sections = sorted.map((memory) => {
    const from = [
      `source: ${memory.source}`,
      ...(memory.workItemID === null ? [] : [`work item: ${memory.workItemID}`]),
      `updated: ${new Date(memory.updatedAt).toISOString()}`,
    ].join('; ');
    return `## ${memory.topic}\n\n<!-- ${from} -->\n\n${memory.text.trim()}\n`;
  });
  return [`${TITLE}\n`, ...sections].join('\n');
}

export type ParsedMemories =
  | { ok: true; memories: { topic: string; text: string }[] }
  | { ok: false; errors: string[] };

/**
 * Reads memories from Markdown (`flotilla memory import`): each `## <topic>` heading starts one, the text
 * below it (HTML comments and a `# ` title left out) is its text. Errors name the file and line: a memory
 * without text, a topic or text over its bound, a topic twice, text before the first heading.
 */
export function parseMemoriesMarkdown(markdown: string, file: string): ParsedMemories {
  const errors: string[] = [];
  const memories: { topic: string; text: string; line: number }[] = [];
  let current: { topic: string; lines: string[]; line: number } | null = null;
  const finish = () => {
    if (current === null) return;
    const text = current.lines.join('\n').trim();
    const where = `${file}:${current.line}`;
    if (current.topic === '') errors.push(`${where}: expected a topic after '## '`);
    else if (current.topic.length > AGENT_NOTE_LIMITS.topic)
      errors.push(`${where}: topic '${current.topic}' is over ${AGENT_NOTE_LIMITS.topic} characters`);
    else if (text === '') errors.push(`${where}: memory '${current.topic}' has no text`);
    else if (text.length > AGENT_NOTE_LIMITS.memoryText)
      errors.push(`${where}: memory '${current.topic}' is over ${AGENT_NOTE_LIMITS.memoryText} characters`);
    else if (memories.some((memory) => memory.topic.toLowerCase() === current?.topic.toLowerCase()))
      errors.push(`${where}: topic '${current.topic}' appears twice`);
    else memories.push({ topic: current.topic, text, line: current.line });
  };
  const withoutComments = markdown.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''));
  withoutComments.split(/\r?\n/).forEach((line, index) => {
    const heading = /^##\s+(.*)$/.exec(line);
    if (heading !== null) {
      finish();
      current = { topic: (heading[1] ?? '').trim(), lines: [], line: index + 1 };
    } else if (current !== null) current.lines.push(line);
    else if (line.trim() !== '' && !/^#\s/.test(line))
      errors.push(`${file}:${index + 1}: expected a '## <topic>' heading before any text`);
  });
  finish();
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, memories: memories.map(({ topic, text }) => ({ topic, text })) };
}
