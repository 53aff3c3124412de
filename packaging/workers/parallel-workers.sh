#!/bin/sh
# One worker on each machine named, over ssh with GNU parallel (arena/WORKERS.md,
# "Placing workers"); each uses every CPU of its machine.
#   sh parallel-workers.sh URL TOKEN_FILE HOST...
# TOKEN_FILE (host account add --worker) and skipbo-arena must be at the same
# path on every HOST. Ctrl-C or SIGTERM stops them all: each releases its lease.
set -eu
url=$1 token=$2
shift 2
exec parallel --nonall --line-buffer --tag -S "$(echo "$@" | tr ' ' ,)" \
	skipbo-arena work --token-file "$token" -j '$(nproc)' "$url"
