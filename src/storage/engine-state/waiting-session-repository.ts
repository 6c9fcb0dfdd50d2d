import type { Database } from 'better-sqlite3';
import type { ItemAgentRole, WaitingSession } from '../../domain/index.ts';

/** The sessions waiting for answers (migration 005), one per work item. */
export interface WaitingSessionRepository {
  /** Every waiting session; answers are not kept (they are on the tracker, where the poller finds them). */
  list(): WaitingSession[];
  save(waiting: WaitingSession): void;
  remove(workItemID: string): void;
}

interface WaitingSessionRow {
  work_item_id: string;
  role: ItemAgentRole;
  session_id: string;
  session_number: number;
  revision_id: string | null;
  runtime: string;
  agent_session_id: string | null;
  worktree_branch: string | null;
  worktree_path: string | null;
  worktree_base_commit: string | null;
  state_dir: string | null;
  questions: string;
  asked_at: number;
}

export function createWaitingSessionRepository(db: Database): WaitingSessionRepository {
  const selectAll = db.prepare<[], WaitingSessionRow>('SELECT * FROM waiting_sessions ORDER BY asked_at');
  const upsert = db.prepare(`
    INSERT OR REPLACE INTO waiting_sessions (
      work_item_id, role, session_id, session_number, revision_id, runtime, agent_session_id, worktree_branch,
      worktree_path, worktree_base_commit, state_dir, questions, asked_at
    ) VALUES (
      @work_item_id, @role, @session_id, @session_number, @revision_id, @runtime, @agent_session_id,
      @worktree_branch, @worktree_path, @worktree_base_commit, @state_dir, @questions, @asked_at
    )
  `);
  const deleteOne = db.prepare('DELETE FROM waiting_sessions WHERE work_item_id = ?');
  return {
    list() {
      return selectAll.all().map((row) => ({
        workItemID: row.work_item_id,
        role: row.role,
        sessionID: row.session_id,
        sessionNumber: row.session_number,
        revisionID: row.revision_id,
        questions: JSON.parse(row.questions) as string[],
        session: {
          runtime: row.runtime,
          agentSessionID: row.agent_session_id,
          worktree:
            row.worktree_path !== null && row.worktree_branch !== null && row.worktree_base_commit !== null
              ? {
                  branchName: row.worktree_branch,
                  path: row.worktree_path,
                  baseCommit: row.worktree_base_commit,
                }
              : null,
          stateDir: row.state_dir,
        },
        askedAt: row.asked_at,
        answers: null,
      }));
    },
    save(waiting) {
      const { session } = waiting;
      upsert.run({
        work_item_id: waiting.workItemID,
        role: waiting.role,
        session_id: waiting.sessionID,
        session_number: waiting.sessionNumber,
        revision_id: waiting.revisionID,
        runtime: session.runtime,
        agent_session_id: session.agentSessionID,
        worktree_branch: session.worktree?.branchName ?? null,
        worktree_path: session.worktree?.path ?? null,
        worktree_base_commit: session.worktree?.baseCommit ?? null,
        state_dir: session.stateDir,
        questions: JSON.stringify(waiting.questions),
        asked_at: waiting.askedAt,
      });
    },
    remove(workItemID) {
      deleteOne.run(workItemID);
    },
  };
}
