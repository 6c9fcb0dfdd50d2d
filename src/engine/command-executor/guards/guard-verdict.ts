import type { RejectionKind } from '../../../domain/index.ts';

/** A guard's answer: go ahead, or a `commandRejected` of this kind and reason. */
export type GuardVerdict = { ok: true } | { ok: false; kind: RejectionKind; reason: string };
