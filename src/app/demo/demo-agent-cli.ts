/**
 * The agent CLI of `flotilla demo --runtime cli`: a scripted stand-in for a real agent CLI (no model, no
 * account), run by the CLI runtime through a `custom` preset as `node demo-agent-cli.js` with the prompt on
 * stdin. It plays the first round of `demo-scenario-cli.json` whose `promptIncludes` all occur in the prompt
 * — print lines, write files in its working directory, commit — and finishes as any CLI agent must, by
 * writing `.flotilla/signal.json`. A prompt no round matches ends with an `error` signal saying so.
 * It reports its usage as the `claude` CLI's stream-json does (one assistant message: model and tokens),
 * the tokens derived from what it read and wrote at ~4 characters a token, so the demo shows what such a
 * run would cost at DEMO_AGENT_MODEL's list price (recorded as `scripted`: marked, never counted with real spend).
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
/** The model its usage is reported as: one the Claude runtime's price table knows. */
const DEMO_AGENT_MODEL = 'claude-sonnet-5';
const CHARS_PER_TOKEN = 4;

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
  const written = round.steps.map((step) => JSON.stringify(step).length).reduce((a, b) => a + b, 0);
  const usage = {
    input_tokens: Math.ceil(prompt.length / CHARS_PER_TOKEN),
    output_tokens: Math.ceil(written / CHARS_PER_TOKEN),
  };
  const message = { id: `msg_demo_${round.name}`, model: DEMO_AGENT_MODEL, usage };
  process.stdout.write(`${JSON.stringify({ type: 'assistant', message })}\n`);
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
