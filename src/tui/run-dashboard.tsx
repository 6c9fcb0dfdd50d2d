import { render } from 'ink';
import { DashboardApp } from './dashboard-app.tsx';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createStreamBuffers } from './streams/create-stream-buffers.ts';

export interface RunDashboardOptions extends Omit<DashboardDeps, 'streams'> {
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
}

const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';

/**
 * Runs the dashboard full-screen on the terminal (the alternate screen, so the shell's scroll-back is left
 * as it was) until the user quits and the engine has stopped. Ink patches console.* for its lifetime, so a
 * stray console call cannot break the layout; everything else logs to the log file.
 */
export async function runDashboard(options: RunDashboardOptions): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  const streams = createStreamBuffers(options.engine);
  stdout.write(ENTER_ALTERNATE_SCREEN);
  try {
    const instance = render(<DashboardApp deps={{ ...options, streams }} />, {
      stdout,
      stdin: options.stdin ?? process.stdin,
      exitOnCtrlC: false,
      patchConsole: true,
      maxFps: 20,
    });
    await instance.waitUntilExit();
  } finally {
    streams.close();
    stdout.write(LEAVE_ALTERNATE_SCREEN);
  }
}
