export type SpecStatus = 'draft' | 'approved' | 'deprecated';

/** A specification document on the default branch. */
export interface Spec {
  filePath: string;
  blobSHA: string;
  frontmatterStatus: SpecStatus;
}

/** A spec the provider could read but not interpret (e.g. broken frontmatter); treated as draft. */
export interface SpecProblem {
  filePath: string;
  message: string;
}

export interface SpecListing {
  specs: Spec[];
  problems: SpecProblem[];
}
