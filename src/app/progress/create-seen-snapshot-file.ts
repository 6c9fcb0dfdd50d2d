import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { SeenSnapshot } from './build-seen-snapshot.ts';

const seenSnapshotSchema = z.object({
  workItems: z.record(z.string(), z.string()),
  revisions: z.record(z.string(), z.string()),
  specs: z.record(z.string(), z.string()),
});

/**
 * The last run's snapshot of the tracker, kept in Flotilla's state directory. It only shortens start-up
 * output: a missing or unreadable file reads as "no last run" (every line is printed, nothing is lost), and
 * a write is atomic (a temporary file renamed), so a run killed mid-write leaves the old snapshot whole.
 */
export function createSeenSnapshotFile(path: string): {
  read(): SeenSnapshot | null;
  write(snapshot: SeenSnapshot): void;
} {
  return {
    read() {
      try {
        const parsed = seenSnapshotSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    write(snapshot) {
      mkdirSync(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(snapshot)}\n`);
      renameSync(temporary, path);
    },
  };
}
