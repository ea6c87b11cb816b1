#!/usr/bin/env bash
# Builds Tests/Fixtures/ClientConsumer — an app that depends on the StoreSyncClient product
# alone — with a scratch path of its own, runs it, and fails if any module of the server's
# dependency graph was compiled for it: Hummingbird, SwiftNIO, libpq (CLibPQ, PostgresLibPQ)
# or AsyncHTTPClient. Internal modules of this package that the client imports (StoreSyncCore,
# StoreSyncAPI, AppStorePayloads, StoreSyncWire) are allowed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
fixture="$root/Tests/Fixtures/ClientConsumer"
scratch="${CLIENT_CONSUMER_SCRATCH:-$root/.build/client-consumer}"
swift="${SWIFT:-swift}"

echo "check-client: building $fixture (scratch $scratch)"
"$swift" build --package-path "$fixture" --scratch-path "$scratch" --product ClientConsumer

bin="$("$swift" build --package-path "$fixture" --scratch-path "$scratch" --show-bin-path)"
# SwiftPM makes a <Module>.build directory for every target of the package graph, built or
# not; a module that was compiled has object files in it (C and Swift alike), and a Swift
# module also leaves Modules/<Module>.swiftmodule.
compiled() {
    for dir in "$bin"/*.build; do
        if [ -n "$(find "$dir" -name '*.o' -print -quit)" ]; then basename "$dir" .build; fi
    done
    if [ -d "$bin/Modules" ]; then
        find "$bin/Modules" -maxdepth 1 -name '*.swiftmodule' -exec basename {} .swiftmodule \;
    fi
}
modules="$(compiled | sort -u)"
if ! grep -qx 'StoreSyncClient' <<<"$modules"; then
    echo "check-client: StoreSyncClient was not built; the check would prove nothing" >&2
    exit 1
fi

forbidden='^(_?Hummingbird.*|_?NIO.*|CNIO.*|_NIO.*|CLibPQ|PostgresLibPQ|AsyncHTTPClient|CAsyncHTTPClient|StoreSyncServer|AppStoreVerification)$'
offenders="$(grep -E "$forbidden" <<<"$modules" || true)"
if [ -n "$offenders" ]; then
    echo "check-client: an app depending on StoreSyncClient compiled server modules:" >&2
    sed 's/^/  /' <<<"$offenders" >&2
    exit 1
fi

"$bin/ClientConsumer"
echo "check-client: ok — compiled only: $(tr '\n' ' ' <<<"$modules")"
