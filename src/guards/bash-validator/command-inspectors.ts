import { PATTERN } from './default-bash-validator-rules.ts';
import { AWK_COMMANDS, inspectAwk } from './inspectors/inspect-awk.ts';
import { inspectChmod } from './inspectors/inspect-chmod.ts';
import { inspectEnv } from './inspectors/inspect-env.ts';
import { FILE_WRITER_COMMANDS, inspectFileWriter } from './inspectors/inspect-file-writers.ts';
import { inspectFind } from './inspectors/inspect-find.ts';
import { inspectGit } from './inspectors/inspect-git.ts';
import { inspectNpm, inspectNpx, inspectPnpm, inspectYarn } from './inspectors/inspect-package-managers.ts';
import { inspectPrintf } from './inspectors/inspect-printf.ts';
import { inspectRipgrep } from './inspectors/inspect-ripgrep.ts';
import { inspectSed } from './inspectors/inspect-sed.ts';
import { inspectShell, SHELL_COMMANDS } from './inspectors/inspect-shell.ts';
import {
  createPatternInspector,
  inspectCodeEvaluator,
  inspectDd,
} from './inspectors/inspect-simple-dangerous-commands.ts';
import { inspectSort } from './inspectors/inspect-sort.ts';
import { inspectTest } from './inspectors/inspect-test.ts';
import { inspectUniq } from './inspectors/inspect-uniq.ts';
import { inspectWrapper, WRAPPER_COMMANDS } from './inspectors/inspect-wrappers.ts';
import { inspectXargs } from './inspectors/inspect-xargs.ts';
import type { CommandInspector } from './types.ts';

/** Structural rules keyed by command base name (`/usr/bin/git` → `git`). */
export function buildCommandInspectors(): ReadonlyMap<string, CommandInspector> {
  const inspectors = new Map<string, CommandInspector>([
    ['rm', createPatternInspector(PATTERN.rm)],
    ['sudo', createPatternInspector(PATTERN.sudo)],
    ['eval', createPatternInspector(PATTERN.eval)],
    ['fdisk', createPatternInspector(PATTERN.fdisk)],
    ['chown', createPatternInspector(PATTERN.chown)],
    ['kill', createPatternInspector(PATTERN.kill)],
    ['pkill', createPatternInspector(PATTERN.pkill)],
    ['killall', createPatternInspector(PATTERN.killall)],
    ['dd', inspectDd],
    ['source', inspectCodeEvaluator],
    ['.', inspectCodeEvaluator],
    ['trap', inspectCodeEvaluator],
    ['fc', inspectCodeEvaluator],
    ['git', inspectGit],
    ['chmod', inspectChmod],
    ['find', inspectFind],
    ['xargs', inspectXargs],
    ['env', inspectEnv],
    ['npx', inspectNpx],
    ['npm', inspectNpm],
    ['pnpm', inspectPnpm],
    ['yarn', inspectYarn],
    ['sed', inspectSed],
    ['sort', inspectSort],
    ['uniq', inspectUniq],
    ['rg', inspectRipgrep],
    ['printf', inspectPrintf],
    ['test', inspectTest],
    ['[', inspectTest],
  ]);
  for (const name of WRAPPER_COMMANDS) inspectors.set(name, inspectWrapper);
  for (const name of SHELL_COMMANDS) inspectors.set(name, inspectShell);
  for (const name of AWK_COMMANDS) inspectors.set(name, inspectAwk);
  for (const name of FILE_WRITER_COMMANDS) inspectors.set(name, inspectFileWriter);
  return inspectors;
}

/** `mkfs`, `mkfs.ext4`, `mkfs.vfat`, … */
export const inspectMkfs: CommandInspector = createPatternInspector(PATTERN.mkfs);
