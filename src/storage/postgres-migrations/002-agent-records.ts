import type { PostgresMigration } from './postgres-migration.ts';

/**
 * The rest of the engine's state on PostgreSQL in cluster mode: task context, proposals, memories, agent
 * notes, conversations between agents and engine errors, as the SQLite migrations 001–017 left them (same
 * names, columns and checks). `INTEGER PRIMARY KEY AUTOINCREMENT` is `BIGSERIAL PRIMARY KEY`; SQLite's
 * implicit `rowid` is a real column where the repositories order ties by it. A memory's topic is unique
 * case-insensitively: `lower(topic)` here, `topic COLLATE NOCASE` on SQLite (which folds ASCII only).
 */
export const agentRecordsPostgresMigration: PostgresMigration = {
  version: 2,
  name: 'agent records: task context, proposals, memories, notes, conversations, errors',
  statements: [
    `CREATE TABLE task_context (
      rowid BIGSERIAL NOT NULL UNIQUE,
      id TEXT PRIMARY KEY,
      work_item_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
      runtime TEXT,
      type TEXT NOT NULL,
      summary TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX task_context_by_item ON task_context (work_item_id, created_at)',
    `CREATE TABLE proposals (
      rowid BIGSERIAL NOT NULL UNIQUE,
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('plan', 'investigation', 'refinement')),
      status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'stale')),
      session_id TEXT NOT NULL,
      spec_shas TEXT NOT NULL,
      base_planned_shas TEXT NOT NULL,
      result TEXT NOT NULL,
      revises TEXT,
      created_at BIGINT NOT NULL,
      decided_at BIGINT,
      decided_by TEXT,
      reason TEXT,
      subject_id TEXT,
      report TEXT
    )`,
    'CREATE INDEX proposals_by_status ON proposals (status, created_at)',
    `CREATE TABLE memories (
      id BIGSERIAL PRIMARY KEY,
      topic TEXT NOT NULL,
      text TEXT NOT NULL,
      source TEXT NOT NULL CHECK (source IN ('planner', 'implementor', 'reviewer', 'human')),
      session_id TEXT,
      work_item_id TEXT,
      runtime TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    'CREATE UNIQUE INDEX memories_by_topic ON memories (lower(topic))',
    'CREATE INDEX memories_by_update ON memories (updated_at)',
    `CREATE TABLE agent_notes (
      id BIGSERIAL PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('decision', 'question')),
      work_item_id TEXT,
      session_id TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
      runtime TEXT,
      text TEXT NOT NULL,
      why TEXT,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX agent_notes_by_item ON agent_notes (work_item_id, created_at)',
    'CREATE INDEX agent_notes_by_kind ON agent_notes (kind, created_at)',
    `CREATE TABLE agent_conversations (
      rowid BIGSERIAL NOT NULL UNIQUE,
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
      created_at BIGINT NOT NULL,
      answered_at BIGINT
    )`,
    'CREATE INDEX agent_conversations_by_time ON agent_conversations (created_at)',
    'CREATE INDEX agent_conversations_by_from_item ON agent_conversations (from_work_item_id, created_at)',
    'CREATE INDEX agent_conversations_by_to_item ON agent_conversations (to_work_item_id, created_at)',
    `CREATE TABLE engine_errors (
      id BIGSERIAL PRIMARY KEY,
      at BIGINT NOT NULL,
      source TEXT NOT NULL,
      message TEXT NOT NULL,
      event_type TEXT,
      event_json TEXT
    )`,
    'CREATE INDEX engine_errors_by_at ON engine_errors (at DESC)',
  ],
};
