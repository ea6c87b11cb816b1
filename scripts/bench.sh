#!/usr/bin/env bash
# `make bench`: builds the server and the bench driver in release mode, then runs the driver,
# which starts `storesync serve` on its embedded PostgreSQL in a temporary directory, seeds
# it, loads it with pgbench and wrk, and prints every figure next to its target.
# Extra arguments go to the driver (`storesync-bench --help`), e.g.
#   scripts/bench.sh --seconds 5 --accounts 20000
# The default run (every phase but the standby's, 100,000 accounts) is held under 15 minutes;
# the long modes are flags:
#   scripts/bench.sh --phases mixed,history          # only the mixed load and the long histories
#   scripts/bench.sh --phases all,standby            # the default run and lookups from a hot standby
#   scripts/bench.sh --accounts 1000000              # a million accounts, the default phases
#   scripts/bench.sh --accounts 10000000 --work-directory /big/disk   # ten million
# A large seed projects the database's size after its first batch and stops before the disk
# under the work directory fills.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH="$PATH:/opt/swift/usr/bin"
swift build -c release --product storesync
swift build -c release --product storesync-bench
bin="$(swift build -c release --show-bin-path)"
exec "$bin/storesync-bench" --server "$bin/storesync" "$@"
