import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactElement } from 'react';

/** A terminal-like stdout of a given size that records frames and can be resized. */
export class SizedStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = () => this.frames.at(-1) ?? '';
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

class TestStdin extends EventEmitter {
  isTTY = true;
  data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const { data } = this;
    this.data = null;
    return data;
  };
}

/** Renders with Ink itself (debug mode: each frame written whole) on a stdout of `columns`×`rows`. */
export function renderAtSize(tree: ReactElement, columns: number, rows: number) {
  const stdout = new SizedStdout(columns, rows);
  const stdin = new TestStdin();
  const instance = render(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new SizedStdout(columns, rows) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return { stdout, stdin, unmount: () => instance.unmount(), lastFrame: stdout.lastFrame };
}
