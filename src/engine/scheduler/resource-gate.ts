/**
 * Whether the machine can hold one more agent of a runtime now (issue #30 §3). The engine asks before it
 * starts a run while another is running (one run is always allowed, so work never stalls); a refusal queues
 * the run with reason `resources`, its `detail` shown to users, and it is asked again at `retryAt`. The
 * implementation measures the machine (src/app/resources/); the engine only asks.
 */
export interface ResourceGate {
  check(runtime: string): ResourceVerdict;
}

export type ResourceVerdict = { ok: true } | { ok: false; detail: string; retryAt: number };
