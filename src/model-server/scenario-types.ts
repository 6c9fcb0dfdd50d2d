import type { RequestView } from './request-view.ts';
import type {
  ContentBlockSpec,
  RouteSpec,
  ScenarioSpec,
  StepSpec,
  StopReason,
  UsageSpec,
} from './scenario-schema.ts';

/** A model reply built in code from the request (see `Step.respond`). */
export interface StepReply {
  text?: string | undefined;
  content?: ContentBlockSpec[] | undefined;
  structuredOutput?: Record<string, unknown> | undefined;
  stopReason?: StopReason | undefined;
  usage?: UsageSpec | undefined;
}

/** In-code step: the JSON form plus optional callbacks. */
export type Step = StepSpec & {
  /** Extra expectation on the request: return the failure message(s), or nothing when it holds. */
  check?: (request: RequestView) => string | string[] | undefined;
  /** Builds the reply from the request; replaces text/content/structuredOutput/stopReason/usage. */
  respond?: (request: RequestView) => StepReply;
  /** Called after `delayMs`: the reply waits until the promise it returns settles (a test's gate). */
  hold?: () => Promise<unknown>;
};

export type Route = Omit<RouteSpec, 'steps'> & { steps: Step[] };

/** A scenario as accepted by `createModelServer`: the JSON form, optionally with callbacks in steps. */
export type Scenario = Omit<ScenarioSpec, 'routes'> & { routes: Route[] };
