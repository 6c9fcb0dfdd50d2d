import {
  WORK_ITEM_COMPLEXITIES,
  WORK_ITEM_PRIORITIES,
  WORK_ITEM_STATUSES,
  type WorkItemStatus,
} from '../../../domain/index.ts';

/** A label as `flotilla github setup-labels` wants it on the repository. */
export interface GitHubLabelSpec {
  name: string;
  /** Six hex digits, no `#` (GitHub's form). */
  color: string;
  description: string;
}

const STATUS_DESCRIPTIONS: Record<WorkItemStatus, string> = {
  pending: 'Flotilla: waiting for its blockers, then dispatched',
  ready: 'Flotilla: ready for an implementor',
  'in-progress': 'Flotilla: an implementor is working on it',
  review: 'Flotilla: its pull request is being checked and reviewed',
  approved: 'Flotilla: approved, ready to merge',
  'needs-refinement': 'Flotilla: the spec needs a human answer first',
  'waiting-for-input': "Flotilla: an agent asked questions; its session waits for a human's answers",
  blocked: 'Flotilla: parked for a human (flotilla work dispatch starts it)',
  closed: 'Flotilla: done or dropped',
};
const STATUS_COLORS: Record<WorkItemStatus, string> = {
  pending: 'c5def5',
  ready: '0e8a16',
  'in-progress': 'fbca04',
  review: '1d76db',
  approved: '2ea44f',
  'needs-refinement': 'd93f0b',
  'waiting-for-input': 'e99695',
  blocked: 'b60205',
  closed: 'cfd3d7',
};
const PRIORITY_COLORS = { high: 'b60205', medium: 'fbca04', low: 'c2e0c6' } as const;

/**
 * Every label under Flotilla's reserved prefixes (`status:` for each status in the domain's list, `task:`,
 * `priority:`, `complexity:`), with a colour and a description, in a stable order.
 */
export function buildGitHubLabelSet(): GitHubLabelSpec[] {
  return [
    ...WORK_ITEM_STATUSES.map((status) => ({
      name: `status:${status}`,
      color: STATUS_COLORS[status],
      description: STATUS_DESCRIPTIONS[status],
    })),
    { name: 'task:implement', color: '5319e7', description: 'Flotilla: a work item an implementor takes' },
    { name: 'task:refinement', color: 'd4c5f9', description: 'Flotilla: a vague item to refine first' },
    {
      name: 'task:questions',
      color: 'fbca04',
      description: "Flotilla: a planner's questions, waiting for answers",
    },
    {
      name: 'task:proposal',
      color: 'c2e0c6',
      description: 'Flotilla: a plan waiting for /accept or /reject',
    },
    {
      name: 'task:investigate',
      color: 'e99695',
      description: 'Flotilla: a bug report an agent investigates (read-only)',
    },
    {
      name: 'task:refine',
      color: 'd4c5f9',
      description: 'Flotilla: a vague item an agent makes precise (read-only)',
    },
    ...WORK_ITEM_PRIORITIES.map((priority) => ({
      name: `priority:${priority}`,
      color: PRIORITY_COLORS[priority],
      description: `Flotilla: ${priority} priority`,
    })),
    ...WORK_ITEM_COMPLEXITIES.map((complexity) => ({
      name: `complexity:${complexity}`,
      color: 'bfdadc',
      description: `Flotilla: ${complexity} complexity`,
    })),
  ];
}
