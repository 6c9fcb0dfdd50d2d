/** `Blocked: matches dangerous pattern '<pattern>'` — the published blocklist message. */
export function patternMessage(source: string): string {
  return `Blocked: matches dangerous pattern '${source}'`;
}

/** `Blocked: '<command>' is not in the allowed command list` — the published allowlist message. */
export function notAllowedMessage(command: string): string {
  return `Blocked: '${command}' is not in the allowed command list`;
}

/** Shows a word in a message, with run-time parts written as `$…`. */
export function displayValue(value: string): string {
  return value.replaceAll('\u0000', '$…');
}
