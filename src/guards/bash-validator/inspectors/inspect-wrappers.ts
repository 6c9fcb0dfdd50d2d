import { commandBaseName } from '../command-word.ts';
import { type OptionSpec, parseCommandOptions } from '../parse-command-options.ts';
import { findProtectedPathInArgument } from '../protected-paths.ts';
import type { CommandInspector } from '../types.ts';
import { runWrappedCommand } from './run-wrapped-command.ts';

interface WrapperShape {
  options: OptionSpec;
  /** Leading operands that belong to the wrapper (e.g. the duration of `timeout`). */
  leadingOperands: number;
  /** When one of these options is present the wrapper runs nothing (e.g. `command -v`). */
  lookupOnly?: readonly string[];
}

const NO_OPTIONS: OptionSpec = { short: {}, long: { help: 'flag', version: 'flag' }, permute: false };

const WRAPPERS: Record<string, WrapperShape> = {
  command: {
    options: { short: { p: 'flag', v: 'flag', V: 'flag' }, long: {}, permute: false },
    leadingOperands: 0,
    lookupOnly: ['-v', '-V'],
  },
  builtin: { options: { short: {}, long: {}, permute: false }, leadingOperands: 0 },
  exec: {
    options: { short: { c: 'flag', l: 'flag', a: 'value' }, long: {}, permute: false },
    leadingOperands: 0,
  },
  nohup: { options: NO_OPTIONS, leadingOperands: 0 },
  nice: {
    options: {
      short: { n: 'value' },
      long: { adjustment: 'value', help: 'flag', version: 'flag' },
      permute: false,
    },
    leadingOperands: 0,
  },
  timeout: {
    options: {
      short: { k: 'value', s: 'value', v: 'flag', f: 'flag', p: 'flag' },
      long: {
        'kill-after': 'value',
        signal: 'value',
        verbose: 'flag',
        foreground: 'flag',
        'preserve-status': 'flag',
        help: 'flag',
        version: 'flag',
      },
      permute: false,
    },
    leadingOperands: 1,
  },
  time: {
    options: {
      short: { p: 'flag', v: 'flag', a: 'flag', q: 'flag', f: 'value', o: 'value' },
      long: {
        portability: 'flag',
        verbose: 'flag',
        append: 'flag',
        quiet: 'flag',
        format: 'value',
        output: 'value',
        help: 'flag',
        version: 'flag',
      },
      permute: false,
    },
    leadingOperands: 0,
  },
  stdbuf: {
    options: {
      short: { i: 'value', o: 'value', e: 'value' },
      long: { input: 'value', output: 'value', error: 'value', help: 'flag', version: 'flag' },
      permute: false,
    },
    leadingOperands: 0,
  },
};

/** Names of the wrappers this inspector sees through. */
export const WRAPPER_COMMANDS: readonly string[] = Object.keys(WRAPPERS);

/**
 * Commands that run another command: `command`, `builtin`, `exec`, `nohup`, `nice`, `timeout`, `time`
 * (the external one) and `stdbuf`. The wrapper itself still has to be allowed; the command it runs is
 * validated with the full rules.
 */
export const inspectWrapper: CommandInspector = (invocation, context) => {
  const name = commandBaseName(invocation.words[0]!.value);
  const shape = WRAPPERS[name];
  if (!shape) return;
  let args = invocation.words.slice(1);
  // `nice -5 cmd` is the legacy form of `nice -n 5 cmd`.
  if (name === 'nice' && args[0] && /^-\d+$/.test(args[0].value)) args = args.slice(1);
  const parsed = parseCommandOptions(args, shape.options);
  if (parsed.error) {
    context.report('danger', `Blocked: cannot tell which command '${name}' runs (${parsed.error})`);
    return;
  }
  for (const option of parsed.options) {
    // `time -o FILE -f FORMAT` writes a file whose content the caller chooses.
    if ((option.name === '-o' || option.name === '--output') && option.value) {
      const problem = findProtectedPathInArgument(option.value, context.place);
      if (problem) {
        context.report('danger', `Blocked: '${name} ${option.name}' refused: ${problem}`);
        return;
      }
    }
  }
  if (shape.lookupOnly && parsed.options.some((option) => shape.lookupOnly!.includes(option.name))) return;
  const command = parsed.operands.slice(shape.leadingOperands);
  runWrappedCommand(invocation, command, context);
};
