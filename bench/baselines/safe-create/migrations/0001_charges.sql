-- The baseline's own tables: a charge row written before the upstream call, and its event.
CREATE TABLE charges (
  id TEXT PRIMARY KEY NOT NULL,
  customer TEXT NOT NULL,
  billing_type TEXT NOT NULL,
  value_cents INTEGER NOT NULL,
  due_date TEXT NOT NULL,
  status TEXT NOT NULL,
  upstream_id TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE events (
  id TEXT PRIMARY KEY NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL
);
