import type { AgentNoteRecord } from '../../domain/index.ts';

/** A detail pane line (build-detail-content.ts's DetailLine, which imports this file). */
interface NoteLine {
  text: string;
  color?: 'cyan' | 'yellow';
  bold?: boolean;
  dim?: boolean;
}

/** What agents recorded on one item (issue #28 §2), as the dashboard reads it from the run history. */
export interface ItemAgentNotes {
  /** `record_decision`: what an agent decided and why, oldest first. */
  decisions: readonly AgentNoteRecord[];
  /** `log_question`: what an agent asked a human without stopping, oldest first. */
  questions: readonly AgentNoteRecord[];
}

/**
 * The item's recorded decisions (with their reasons) and logged questions in the detail pane, oldest first,
 * each with who recorded it and when — as `flotilla work show` and the web detail list them. Nothing when
 * there are none. The viewport sanitizes the agents' text.
 */
export function buildAgentNoteLines(notes: ItemAgentNotes): NoteLine[] {
  return [
    ...section(`decisions agents recorded (${notes.decisions.length}, oldest first):`, notes.decisions),
    ...section(`questions agents logged (${notes.questions.length}, oldest first):`, notes.questions),
  ];
}

function section(title: string, notes: readonly AgentNoteRecord[]): NoteLine[] {
  if (notes.length === 0) return [];
  const lines: NoteLine[] = [{ text: title, bold: true }];
  for (const note of notes) {
    const source = note.runtime === null ? note.role : `${note.role} · ${note.runtime}`;
    const at = new Date(note.createdAt).toISOString().slice(0, 16).replace('T', ' ');
    lines.push({ text: `  [${source}] ${at}`, color: note.kind === 'question' ? 'yellow' : 'cyan' });
    for (const line of nonBlankLines(note.text)) lines.push({ text: `    ${line}` });
    if (note.why !== null) {
      const [first = '', ...rest] = nonBlankLines(note.why);
      lines.push({ text: `    why: ${first}`, dim: true });
      for (const line of rest) lines.push({ text: `         ${line}`, dim: true });
    }
  }
  return lines;
}

function nonBlankLines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}
