import { createHash } from 'node:crypto';

/**
 * A short, stable fingerprint of a text (the first 16 hex digits of its SHA-256), after normalising what
 * trackers change on their own: `\r\n` line ends and surrounding whitespace. Equal texts as a human reads
 * them give equal fingerprints, whichever tracker stored them.
 */
export function hashText(text: string): string {
  const normalised = text.replace(/\r\n?/g, '\n').trim();
  return createHash('sha256').update(normalised, 'utf8').digest('hex').slice(0, 16);
}
