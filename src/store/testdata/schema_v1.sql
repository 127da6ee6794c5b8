-- A results database as nasperf's first schema (version 1) wrote it, with one run.
-- Never edit: it is the fixture that proves migrations from version 1 keep data.
PRAGMA application_id = 1312904016;
PRAGMA user_version = 1;
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  nasperf_version TEXT NOT NULL,
  command_line TEXT NOT NULL,
  source_tool TEXT NOT NULL,
  source_file TEXT NOT NULL,
  name TEXT NOT NULL,
  test TEXT NOT NULL,
  target TEXT NOT NULL,
  engine TEXT NOT NULL,
  partial INTEGER NOT NULL,
  error TEXT NOT NULL,
  job_json TEXT NOT NULL,
  cpu_user_pct REAL NOT NULL,
  cpu_sys_pct REAL NOT NULL,
  notes_json TEXT NOT NULL,
  repeats_json TEXT NOT NULL,
  inventory_json TEXT NOT NULL
);
CREATE TABLE directions (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  dir TEXT NOT NULL CHECK (dir IN ('read', 'write')),
  bytes INTEGER NOT NULL, ios INTEGER NOT NULL, seconds REAL NOT NULL,
  mb_per_s REAL NOT NULL, iops REAL NOT NULL, errors INTEGER NOT NULL,
  lat_mean_us REAL NOT NULL, lat_p50_us REAL NOT NULL, lat_p90_us REAL NOT NULL,
  lat_p99_us REAL NOT NULL, lat_p999_us REAL NOT NULL, lat_max_us REAL NOT NULL,
  histogram BLOB,
  PRIMARY KEY (run_id, dir)
);
CREATE TABLE samples (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  t_s REAL NOT NULL, read_mb_per_s REAL NOT NULL, write_mb_per_s REAL NOT NULL
);
CREATE INDEX samples_by_run ON samples(run_id);
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE INDEX runs_by_start ON runs(started_at);
INSERT INTO runs VALUES (1, '2026-11-01T10:00:00Z', '0.1.0', 'nasperf run /tmp --rw randread --bs 4k --qd 32',
  'nasperf', '', 'v1 run', '', '/tmp', 'io_uring', 0, '',
  '{"rw":"randread","bs":4096,"qd":32,"threads":1,"size":1073741824,"time_s":0.0,"direct":true,"engine":"io_uring"}',
  12.5, 40.25, '[]', '[]', '{"host":{"cpu":{"model":"Fixture CPU"}}}');
INSERT INTO directions VALUES (1, 'read', 1073741824, 262144, 2.0, 536.870912, 131072.0, 0,
  243.1, 230.0, 300.0, 500.0, 900.0, 2100.0, NULL);
INSERT INTO samples VALUES (1, 1.0, 530.0, 0.0);
INSERT INTO samples VALUES (1, 2.0, 543.7, 0.0);
INSERT INTO tags VALUES (1, 'box', 'atom');
