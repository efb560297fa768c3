// The mutation suites construct configs but never dial Temporal: an address nothing listens on says so if one does.
process.env.TEMPORAL_TEST_ADDRESS ??= '127.0.0.1:1';
// The stores' statements are written once for both databases: SQLite judges their mutants, without a PostgreSQL per run.
process.env.TEST_SQL_DIALECTS ??= 'sqlite';
