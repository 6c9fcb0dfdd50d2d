/**
 * The shape of an SDK message as the session log reads it. Structural and loose on purpose: every SDK
 * message type is assignable to it, so the log needs no SDK import, and fields are checked before use.
 */
export interface SessionLogMessage {
  type: string;
  [key: string]: unknown;
}
