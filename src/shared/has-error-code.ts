/** Whether a caught value is a Node.js system error with this `code` (`ENOENT`, `EEXIST`, `EPERM`…). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
