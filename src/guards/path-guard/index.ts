export {
  buildPathGuardScope,
  createPathGuardHook,
  type PathGuardHook,
  type PathGuardOptions,
} from './create-path-guard-hook.ts';
export { decidePathAccess, isWithin } from './decide-path-access.ts';
export { extractToolPaths, GUARDED_TOOLS, type ToolPathExtraction } from './extract-tool-paths.ts';
export { type CheckoutPaths, FLOTILLA_CHECKOUT_DIRS, findCheckoutPaths } from './find-checkout-paths.ts';
export { guardToolCall, type ToolCallPlace } from './guard-tool-call.ts';
export { resolveRealPath } from './resolve-real-path.ts';
export { AGENT_SESSION_TOOLS, INTERACTIVE_TOOLS, isToolAllowed } from './tool-allow-lists.ts';
export type { PathAccess, PathGuardScope, PathGuardVerdict, ToolPathTarget } from './types.ts';
