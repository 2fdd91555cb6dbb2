-- The baseline's only table: enough columns for one realistic payment row.
CREATE TABLE payments (
  id TEXT PRIMARY KEY NOT NULL,
  customer TEXT NOT NULL,
  billing_type TEXT NOT NULL,
  value_cents INTEGER NOT NULL,
  due_date TEXT NOT NULL,
  created_at TEXT NOT NULL
);
