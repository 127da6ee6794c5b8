-- A results database as nasperf's schema version 8 wrote it: schema_v7.sql migrated (the diagnoses
-- table added, empty). Never edit: it is the fixture that proves migrations from version 8 keep
-- data. Made with sqlite3's .dump.
PRAGMA application_id = 1312904016;
PRAGMA user_version = 8;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
, invocation_id INTEGER REFERENCES invocations(id), cached INTEGER, measured_on TEXT NOT NULL DEFAULT 'client', telemetry_json TEXT, protocol_json TEXT, owner_host TEXT, owner_pid INTEGER, owner_start TEXT);
INSERT INTO runs VALUES(1,'2026-11-01T10:00:00Z','0.1.0','nasperf run /tmp --rw randread --bs 4k --qd 32','nasperf','','v1 run','','/tmp','io_uring',0,'','{"rw":"randread","bs":4096,"qd":32,"threads":1,"size":1073741824,"time_s":0.0,"direct":true,"engine":"io_uring"}',12.5,40.25,'[]','[]','{"host":{"cpu":{"model":"Fixture CPU"}}}',1,NULL,'client',NULL,NULL,NULL,NULL,NULL);
INSERT INTO runs VALUES(2,'2026-11-20T09:00:05Z','0.1.0','nasperf sweep /mnt/nas','nasperf','','v3 sweep point','64KiB','/mnt/nas','psync',0,'','{"rw":"read","bs":65536,"qd":1,"threads":1,"size":67108864,"time_s":0.0,"direct":false,"engine":"psync"}',3.5,8.0,'[]','[{"read_mb_per_s":110.5,"write_mb_per_s":0,"read_iops":1686,"write_iops":0,"read_lat_mean_us":590,"write_lat_mean_us":0,"read_lat_p99_us":900,"write_lat_p99_us":0,"seconds":0.6}]','{}',2,1,'client',NULL,NULL,NULL,NULL,NULL);
INSERT INTO runs VALUES(3,'2026-11-25T08:00:01Z','0.1.0','nasperf run /srv/bench --on nas:7777 --rw read --bs 1m','nasperf','','v4 agent run','','/srv/bench','psync',0,'','{"rw":"read","bs":1048576,"qd":1,"threads":1,"size":268435456,"time_s":0.0,"direct":true,"engine":"psync"}',1.5,6.0,'[]','[]','{}',3,NULL,'nas','{"interval_s":1,"samples":[],"summary":["CPU busy: CPU0 98 %, CPU1 4 % (median)"]}',NULL,NULL,NULL,NULL);
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
INSERT INTO directions VALUES(1,'read',1073741824,262144,2.0,536.87091199999997571,131072.0,0,243.0999999999999943,230.0,300.0,500.0,900.0,2100.0,NULL);
INSERT INTO directions VALUES(2,'read',67108864,1024,0.59999999999999997779,111.84799999999999897,1706.7000000000000455,0,585.0,560.0,700.0,900.0,1200.0,1500.0,NULL);
INSERT INTO directions VALUES(3,'read',268435456,256,2.3999999999999999111,111.84810666666666633,106.66666666666600349,0,9375.0,9000.0,11000.0,14000.0,15000.0,16000.0,NULL);
CREATE TABLE samples (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  t_s REAL NOT NULL, read_mb_per_s REAL NOT NULL, write_mb_per_s REAL NOT NULL
);
INSERT INTO samples VALUES(1,1.0,530.0,0.0);
INSERT INTO samples VALUES(1,2.0,543.70000000000004549,0.0);
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
INSERT INTO tags VALUES(1,'box','atom');
INSERT INTO tags VALUES(2,'nas','ss4200');
INSERT INTO tags VALUES(3,'nas','ss4200');
CREATE TABLE invocations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  command TEXT NOT NULL,
  started_at TEXT NOT NULL,
  command_line TEXT NOT NULL
, summary_json TEXT NOT NULL DEFAULT '{}');
INSERT INTO invocations VALUES(1,'run','2026-11-01T10:00:00Z','nasperf run /tmp --rw randread --bs 4k --qd 32','{}');
INSERT INTO invocations VALUES(2,'sweep','2026-11-20T09:00:00Z','nasperf sweep /mnt/nas','{"cache":{"knee_bytes":2147483648}}');
INSERT INTO invocations VALUES(3,'run','2026-11-25T08:00:00Z','nasperf run /srv/bench --on nas:7777 --rw read --bs 1m','{}');
CREATE TABLE diagnoses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  command_line TEXT NOT NULL,
  target TEXT NOT NULL,
  document TEXT,
  partial INTEGER NOT NULL DEFAULT 1
);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('runs',3);
INSERT INTO sqlite_sequence VALUES('invocations',3);
CREATE INDEX samples_by_run ON samples(run_id);
CREATE INDEX runs_by_start ON runs(started_at);
CREATE INDEX runs_by_invocation ON runs(invocation_id);
CREATE INDEX diagnoses_by_start ON diagnoses(started_at);
COMMIT;
