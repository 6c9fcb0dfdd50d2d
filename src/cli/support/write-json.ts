/** Prints `value` as pretty JSON (2-space indent) and a newline: the documented `--json` output. */
export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
