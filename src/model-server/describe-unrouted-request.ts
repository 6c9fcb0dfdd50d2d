import type { RequestView } from './request-view.ts';

const ROLE_WORD = /\b(planner|implementor|reviewer)\b/i;
/** The SDK's own first line of the system prompt ("You are Claude Code, …", "You are a Claude agent, …"). */
const SDK_LINE = /^You are (a )?Claude\b/;
const MAX_LINES = 3;
const MAX_LINE_LENGTH = 120;

/**
 * What a "no route matches" refusal says about the request, so a scenario author can see why: the agent
 * role (the first role word of the system prompt — Flotilla's agent prompts name their role early), the
 * first lines of the system prompt after the SDK's own, and the first lines of the first and last user
 * messages.
 */
export function describeUnroutedRequest(view: RequestView): string {
  const systemLines = meaningfulLines(view.system).filter(
    (line) => !line.startsWith('x-anthropic-billing-header') && !SDK_LINE.test(line),
  );
  const role = ROLE_WORD.exec(systemLines.join('\n'))?.[1]?.toLowerCase() ?? 'unknown';
  const parts = [
    `agent: ${role}`,
    `system prompt starts: ${quoteLines(systemLines)}`,
    `first user message starts: ${quoteLines(meaningfulLines(view.firstUser))}`,
  ];
  if (view.lastUser !== view.firstUser) {
    parts.push(`last user message starts: ${quoteLines(meaningfulLines(view.lastUser))}`);
  }
  return parts.join('; ');
}

/** The CLI prepends `<system-reminder>` blocks to user messages; they say nothing about the request. */
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

function meaningfulLines(text: string): string[] {
  return text
    .replace(SYSTEM_REMINDER, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function quoteLines(lines: readonly string[]): string {
  if (lines.length === 0) return '(empty)';
  const shown = lines
    .slice(0, MAX_LINES)
    .map((line) => (line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}…` : line));
  return JSON.stringify(shown.join(' ⏎ ') + (lines.length > MAX_LINES ? ' ⏎ …' : ''));
}
