/** The part of a stream this needs: process.stdout and process.stderr, or a test's own stream. */
export interface OutputStream {
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

export interface ClosedOutputWatch {
  /** True once the reader went away (`flotilla … | head -1`). */
  readonly closed: () => boolean;
  /** Stops watching; an error seen after this is the stream's own again. */
  dispose(): void;
}

/**
 * Treats a closed pipe on `stream` as the reader having seen enough, like git and gh: EPIPE (and the
 * "stream destroyed" errors of the writes after it) are swallowed instead of crashing with a stack trace, and
 * `onClosed` runs once so the caller can stop work nobody reads. Any other write error is not ours to
 * hide: it is thrown again, as an unhandled stream error would have been.
 */
export function watchClosedOutput(stream: OutputStream, onClosed: () => void = () => {}): ClosedOutputWatch {
  let closed = false;
  const listener = (error: Error) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE' || (closed && code === 'ERR_STREAM_DESTROYED')) {
      if (!closed) {
        closed = true;
        onClosed();
      }
      return;
    }
    throw error;
  };
  stream.on('error', listener);
  return {
    closed: () => closed,
    dispose: () => {
      stream.off('error', listener);
    },
  };
}
