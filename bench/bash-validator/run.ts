/**
 * Bash validator benchmark: median and p99 time of one `validateBashCommand` call over the 72 published
 * vectors plus the bypass and everyday corpora, after warm-up — text only, and with a place (this checkout
 * as cwd and root), where every write target is also followed through the file system's symlinks.
 * Run: npm run bench:bash-validator
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BYPASS_CORPUS, EVERYDAY_CORPUS } from '../../src/guards/bash-validator/bash-validator-corpus.ts';
import {
  type BashPlaceInput,
  getDefaultBashValidatorRules,
  validateBashCommand,
} from '../../src/guards/bash-validator/index.ts';

const WARMUP_ROUNDS = 20;
const MEASURED_ROUNDS = 200;

const vectors = JSON.parse(
  readFileSync(
    new URL('../../src/guards/bash-validator/fixtures/bash-validator-vectors.json', import.meta.url),
    'utf8',
  ),
) as Array<{ command: string }>;
const commands = [
  ...vectors.map((vector) => vector.command),
  ...BYPASS_CORPUS.map((entry) => entry.command),
  ...EVERYDAY_CORPUS.map((entry) => entry.command),
];

const coldStart = performance.now();
validateBashCommand('git status');
const coldMs = performance.now() - coldStart;

const rules = getDefaultBashValidatorRules();
const checkout = realpathSync(fileURLToPath(new URL('../..', import.meta.url)));
const place: BashPlaceInput = { cwd: checkout, root: checkout, deniedPaths: [] };
const format = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;

function measure(label: string, placeOrNull: BashPlaceInput | null): string[] {
  for (let round = 0; round < WARMUP_ROUNDS; round += 1)
    for (const command of commands) validateBashCommand(command, rules, placeOrNull);
  const samples: number[] = [];
  let sink = 0;
  for (let round = 0; round < MEASURED_ROUNDS; round += 1) {
    for (const command of commands) {
      const start = performance.now();
      const result = validateBashCommand(command, rules, placeOrNull);
      samples.push(performance.now() - start);
      if (result.allowed) sink += 1;
    }
  }
  samples.sort((a, b) => a - b);
  const quantile = (q: number): number =>
    samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  const mean = samples.reduce((total, sample) => total + sample, 0) / samples.length;
  return [
    `  ${label}: median ${format(quantile(0.5))}   p90 ${format(quantile(0.9))}   p99 ${format(quantile(0.99))}   max ${format(samples.at(-1)!)}   mean ${format(mean)}`,
    `    (${sink / MEASURED_ROUNDS} of ${commands.length} commands allowed)`,
  ];
}

process.stdout.write(
  [
    `bash validator: ${commands.length} commands × ${MEASURED_ROUNDS} rounds (after ${WARMUP_ROUNDS} warm-up rounds)`,
    `  first call (loads the parser): ${coldMs.toFixed(1)} ms`,
    ...measure('text only          ', null),
    ...measure('symlinks followed  ', place),
    '',
  ].join('\n'),
);
