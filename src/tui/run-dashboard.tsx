import { render } from 'ink';
import type { Logger } from '../logging/logger.ts';
import { captureStrayOutput } from './capture-stray-output.ts';
import { DashboardApp } from './dashboard-app.tsx';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createStreamBuffers } from './streams/create-stream-buffers.ts';

export interface RunDashboardOptions extends Omit<DashboardDeps, 'streams'> {
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /** Where stray console / stderr output and process warnings go while the dashboard owns the screen. */
  logger: Logger;
}

const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';

/**
 * Runs the dashboard full-screen on the terminal (the alternate screen, so the shell's scroll-back is left
 * as it was) until the user quits and the engine has stopped. Console calls, stderr writes and process
 * warnings go to the log file meanwhile, so no stray output can break the layout.
 */
export async function runDashboard(options: RunDashboardOptions): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  const streams = createStreamBuffers(options.engine);
  stdout.write(ENTER_ALTERNATE_SCREEN);
  const restoreOutput = captureStrayOutput(options.logger);
  try {
    const instance = render(<DashboardApp deps={{ ...options, streams }} />, {
      stdout,
      stdin: options.stdin ?? process.stdin,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
    });
    await instance.waitUntilExit();
  } finally {
    streams.close();
    restoreOutput();
    stdout.write(LEAVE_ALTERNATE_SCREEN);
  }
}
