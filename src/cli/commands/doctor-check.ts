/** `fail` blocks `flotilla run`; `warn` lets it run but something will not work as the user may expect. */
export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  /**
   * A stable identifier (`git`, `config`, `agents`, `specs`, `credentials`, `account-<name>`, a runtime's
   * name (`codex`, `gemini`), `cli-<role>`, `scenario`, `checks`, `sandbox`, `prompts`; with provider github `github-token`, `github-access`,
   * `github-branch`, `github-labels`, `github-quota` instead of `specs`).
   */
  name: string;
  status: DoctorStatus;
  /** What was found, one line. */
  message: string;
  /** What to do about it (empty when nothing is needed). */
  fix: string[];
}

/** A check that found nothing to do. */
export const ok = (name: string, message: string): DoctorCheck => ({ name, status: 'ok', message, fix: [] });
