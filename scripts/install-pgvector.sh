#!/usr/bin/env bash
# Installs pgvector into the local PostgreSQL server when it is missing (CI and dev machines; best
# effort: the knowledge base falls back to in-process vector ranking without it, and says so).
# Debian bookworm ships no pgvector package for its PostgreSQL 15 (nor do its backports), so this
# builds Debian's own source package (pgvector, from the trixie suite) against the server's
# headers: apt-get source reaches Debian only, with a private sources list that leaves the machine's alone.
set -euo pipefail
PG_CONFIG="$(ls /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | sort -V | tail -1 || true)"
[ -n "$PG_CONFIG" ] || { echo "install-pgvector: no local PostgreSQL server found"; exit 0; }
if [ -f "$("$PG_CONFIG" --sharedir)/extension/vector.control" ]; then exit 0; fi
PG_MAJOR="$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')"
export DEBIAN_FRONTEND=noninteractive
# A packaged build first (a server from a suite that has one, e.g. PostgreSQL's own apt repository).
if apt-get install -y -qq "postgresql-$PG_MAJOR-pgvector" >/dev/null 2>&1; then exit 0; fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
printf 'deb-src http://deb.debian.org/debian trixie main\n' > "$WORK/sources.list"
APT_SRC=(-o "Dir::Etc::SourceList=$WORK/sources.list" -o "Dir::Etc::SourceParts=/nonexistent" -o "Dir::State::Lists=$WORK/lists")
mkdir -p "$WORK/lists/partial"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "postgresql-server-dev-$PG_MAJOR" make gcc dpkg-dev >/dev/null
apt-get "${APT_SRC[@]}" update -qq
(cd "$WORK" && apt-get "${APT_SRC[@]}" source --download-only -qq pgvector >/dev/null 2>&1)
tar -xzf "$WORK"/pgvector_*.orig.tar.gz -C "$WORK"
cd "$WORK"/pgvector-*/
# OPTFLAGS="": no -march=native, so that the build runs on any CPU of this architecture; no LLVM bitcode (no clang needed).
make -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="" with_llvm=no >/dev/null
make -s PG_CONFIG="$PG_CONFIG" with_llvm=no install >/dev/null
echo "install-pgvector: pgvector $(sed -nE "s/^default_version = '(.*)'/\1/p" vector.control) built for PostgreSQL $PG_MAJOR"
