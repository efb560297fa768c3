#!/bin/sh
# Temporal's two databases on PostgreSQL (persistence and visibility), created when absent and brought to
# the schema of this server's version. The schemas are the server module's schema/postgresql/v12 folders,
# which temporal-sql-tool carries inside it (--schema-name). Every step is idempotent: run it before every
# start of a new server version. Run by docker-compose.yml (the temporal-databases service) and by
# `npm run cluster`, with the server's own variables: POSTGRES_SEEDS, DB_PORT, POSTGRES_USER, POSTGRES_PWD,
# DBNAME, VISIBILITY_DBNAME.
set -eu
: "${POSTGRES_SEEDS:?the PostgreSQL host}" "${POSTGRES_USER:?the PostgreSQL user}"
export SQL_PLUGIN=postgres12 SQL_HOST="$POSTGRES_SEEDS" SQL_PORT="${DB_PORT:-5432}" SQL_USER="$POSTGRES_USER" SQL_PASSWORD="${POSTGRES_PWD:-}"

setup() {
  SQL_DATABASE="$1" temporal-sql-tool create-database
  SQL_DATABASE="$1" temporal-sql-tool setup-schema -v 0.0
  SQL_DATABASE="$1" temporal-sql-tool update-schema --schema-name "postgresql/v12/$2"
}

setup "${DBNAME:-temporal}" temporal
setup "${VISIBILITY_DBNAME:-temporal_visibility}" visibility
