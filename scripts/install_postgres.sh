#!/usr/bin/env bash
# PostgreSQL for the review tests (tests/dashboard/review): Debian's server package, whose initdb and
# pg_ctl the tests run in a temporary folder on a free port. Idempotent; Debian/Ubuntu, as root or with sudo.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "postgresql already installed: $(ls -d /usr/lib/postgresql/*/bin | head -1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install_postgres.sh: need root (or sudo) to apt-get install postgresql" >&2
    exit 0
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install_postgres.sh: no apt-get on this system; install PostgreSQL (initdb, pg_ctl) by hand" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# the package would start a cluster of its own: not needed (the tests start theirs), so stop it if it runs
$SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
$SUDO sh -c 'command -v pg_ctlcluster >/dev/null && pg_lsclusters -h 2>/dev/null | while read v c _; do pg_ctlcluster "$v" "$c" stop || true; done' || true
ls -d /usr/lib/postgresql/*/bin
