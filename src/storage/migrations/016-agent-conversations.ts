import type { Migration } from './migration.ts';

/**
 * Inter-agent questions (issue #28 §3): one row per conversation — who asked whom (sessions, roles, work
 * items; the target as the asker named it), the question, the answer or what the asker was told instead,
 * the times and how it ended. Written from the engine's `conversationCreated`/`conversationAnswered` events.
 */
export const agentConversationsMigration: Migration = {
  version: 16,
  name: 'agent conversations',
  up(db) {
    db.exec(`
      CREATE TABLE agent_conversations (
        id TEXT PRIMARY KEY,
        from_session_id TEXT NOT NULL,
        from_role TEXT NOT NULL CHECK (from_role IN ('planner', 'implementor', 'reviewer')),
        from_work_item_id TEXT,
        target TEXT NOT NULL,
        to_session_id TEXT,
        to_role TEXT CHECK (to_role IN ('planner', 'implementor', 'reviewer')),
        to_work_item_id TEXT,
        question TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('open', 'answered', 'timeout', 'not-running', 'refused', 'stopped')),
        answer TEXT,
        timeout_seconds INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        answered_at INTEGER
      );
      CREATE INDEX agent_conversations_by_time ON agent_conversations (created_at);
      CREATE INDEX agent_conversations_by_from_item ON agent_conversations (from_work_item_id, created_at);
      CREATE INDEX agent_conversations_by_to_item ON agent_conversations (to_work_item_id, created_at);
    `);
  },
};
