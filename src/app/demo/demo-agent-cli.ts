/**
 * The agent CLI of `flotilla demo --runtime cli`: a scripted stand-in for a real agent CLI (no model, no
 * account), run by the CLI runtime through a `custom` preset as `node demo-agent-cli.js` with the prompt on
 * stdin. It plays the first round of `demo-scenario-cli.json` whose `promptIncludes` all occur in the prompt
 * — print lines, write files in its working directory, commit — and finishes as any CLI agent must, by
 * writing `.flotilla/signal.json`. A prompt no round matches ends with an `error` signal saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';

const DemoStepSchema = z.union([
  z.strictObject({ print: z.string() }),
  z.strictObject({ write: z.strictObject({ path: z.string().min(1), content: z.string() }) }),
  /** `git add -A` and a commit with this message. */
  z.strictObject({ commit: z.string().min(1) }),
  /** The signal file's object, as the CLI runtime reads it. */
  z.strictObject({ signal: z.record(z.string(), z.unknown()) }),
]);
type DemoStep = z.infer<typeof DemoStepSchema>;

const DemoScriptSchema = z.strictObject({
  name: z.string(),
  rounds: z.array(
    z.strictObject({
      name: z.string(),
      promptIncludes: z.array(z.string()).min(1),
      steps: z.array(DemoStepSchema),
    }),
  ),
});

const DEMO_AGENT_SCRIPT = join(import.meta.dirname, 'demo-scenario-cli.json');

function main(): void {
  const script = DemoScriptSchema.parse(JSON.parse(readFileSync(DEMO_AGENT_SCRIPT, 'utf8')));
  const prompt = readFileSync(0, 'utf8');
  const round = script.rounds.find((candidate) =>
    candidate.promptIncludes.every((text) => prompt.includes(text)),
  );
  if (round === undefined) {
    play({ print: 'demo agent: no scripted round matches this prompt' });
    play({
      signal: { status: 'error', error: `the demo agent (${script.name}) has no round for this prompt` },
    });
    return;
  }
  for (const step of round.steps) play(step);
}

function play(step: DemoStep): void {
  if ('print' in step) {
    process.stdout.write(`${step.print}\n`);
  } else if ('write' in step) {
    const path = normalize(step.write.path);
    if (isAbsolute(path) || path.startsWith('..')) throw new Error(`demo agent: refusing to write ${path}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, step.write.content);
    process.stdout.write(`wrote ${path}\n`);
  } else if ('commit' in step) {
    git(['add', '-A']);
    git([
      '-c',
      'user.name=Flotilla Demo Agent',
      '-c',
      'user.email=demo-agent@flotilla.invalid',
      'commit',
      '-qm',
      step.commit,
    ]);
    process.stdout.write(`committed: ${step.commit}\n`);
  } else {
    mkdirSync('.flotilla', { recursive: true });
    writeFileSync(join('.flotilla', 'signal.json'), JSON.stringify(step.signal));
  }
}

function git(args: string[]): void {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`demo agent: git ${args.join(' ')} failed: ${result.stderr}`);
}

main();
