import type { Spec, SpecStatus } from '../../../src/domain/index.ts';
import type { SpecReader } from '../../../src/providers/types.ts';
import { buildGitBlobSHA, type InMemorySpecRecord, type InMemoryWorld } from './in-memory-world.ts';

export interface HumanSpecInput {
  filePath: string;
  frontmatterStatus: SpecStatus;
  /** File content; default: a small document with the frontmatter status. The blob SHA is derived from it. */
  content?: string;
}

export interface HumanSpecEdit {
  frontmatterStatus?: SpecStatus;
  content?: string;
}

export function createInMemorySpecs(world: InMemoryWorld) {
  function write(filePath: string, frontmatterStatus: SpecStatus, content: string | undefined): Spec {
    const text = content ?? buildSpecContent(filePath, frontmatterStatus);
    const spec: InMemorySpecRecord = {
      filePath,
      frontmatterStatus,
      content: text,
      blobSHA: buildGitBlobSHA(text),
    };
    world.specs.set(filePath, spec);
    world.specBlobs.set(spec.blobSHA, text);
    world.specProblems.delete(filePath);
    world.commitToDefaultBranch(`write ${filePath}`);
    return toSpec(spec);
  }

  function existing(filePath: string): InMemorySpecRecord {
    const spec = world.specs.get(filePath);
    if (!spec) throw new Error(`in-memory provider: spec ${filePath} does not exist`);
    return spec;
  }

  const reader: SpecReader = {
    async listSpecs() {
      const byPath = (a: { filePath: string }, b: { filePath: string }) =>
        a.filePath.localeCompare(b.filePath);
      return {
        specs: [...world.specs.values()].map(toSpec).sort(byPath),
        problems: [...world.specProblems].map(([filePath, message]) => ({ filePath, message })).sort(byPath),
      };
    },
    async getDefaultBranchSHA() {
      return world.defaultBranchSHA;
    },
    async readSpecBlob(blobSHA) {
      const content = world.specBlobs.get(blobSHA);
      if (content === undefined) throw new Error(`Blob ${blobSHA} is missing`);
      return content;
    },
  };

  const control = {
    /** Adds or overwrites a spec (one commit on the default branch). */
    addSpec(input: HumanSpecInput): Spec {
      return write(input.filePath, input.frontmatterStatus, input.content);
    },
    /** Changes an existing spec; without new content, the content is regenerated for the new status. */
    editSpec(filePath: string, edit: HumanSpecEdit): Spec {
      const spec = existing(filePath);
      const status = edit.frontmatterStatus ?? spec.frontmatterStatus;
      const statusChanged = status !== spec.frontmatterStatus;
      const content = edit.content ?? (statusChanged ? undefined : spec.content);
      return write(filePath, status, content);
    },
    removeSpec(filePath: string): void {
      existing(filePath);
      world.specs.delete(filePath);
      world.commitToDefaultBranch(`remove ${filePath}`);
    },
    /** Makes the file unreadable: it leaves `specs` and shows up in `problems`. */
    setSpecProblem(filePath: string, message: string): void {
      world.specs.delete(filePath);
      world.specProblems.set(filePath, message);
      world.commitToDefaultBranch(`break ${filePath}`);
    },
    removeSpecProblem(filePath: string): void {
      if (!world.specProblems.delete(filePath)) {
        throw new Error(`in-memory provider: no spec problem for ${filePath}`);
      }
      world.commitToDefaultBranch(`remove ${filePath}`);
    },
    specRecords(): InMemorySpecRecord[] {
      return structuredClone([...world.specs.values()]);
    },
    defaultBranchSHA(): string {
      return world.defaultBranchSHA;
    },
  };

  return { reader, control };
}

function toSpec(spec: InMemorySpecRecord): Spec {
  return { filePath: spec.filePath, blobSHA: spec.blobSHA, frontmatterStatus: spec.frontmatterStatus };
}

function buildSpecContent(filePath: string, status: SpecStatus): string {
  return `---\nstatus: ${status}\n---\n\n# ${filePath}\n`;
}
