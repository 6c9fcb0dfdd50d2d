/** Stdin and stdout are both terminals: the dashboard can take the screen and read keys. */
export function isInteractiveTerminal(): boolean {
  return process.stdout.isTTY === true && process.stdin.isTTY === true;
}
