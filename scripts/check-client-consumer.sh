#!/usr/bin/env bash
# Builds Tests/Fixtures/ClientConsumer — an app that depends on the StoreSyncClient product
# alone — with a scratch path of its own, runs it, and fails if any module of the server's
# dependency graph went into it: Hummingbird, SwiftNIO, libpq (CLibPQ, PostgresLibPQ)
# or AsyncHTTPClient. Internal modules of this package that the client imports (StoreSyncCore,
# StoreSyncAPI, AppStorePayloads, StoreSyncWire) are allowed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
fixture="$root/Tests/Fixtures/ClientConsumer"
scratch="${CLIENT_CONSUMER_SCRATCH:-$root/.build/client-consumer}"
swift="${SWIFT:-swift}"

build() { "$swift" build --package-path "$fixture" --scratch-path "$scratch" --product ClientConsumer; }

echo "check-client: building $fixture (scratch $scratch)"
if ! build; then
    # SwiftPM keeps a path dependency's file lists from the last build: after files of this
    # package moved (another branch), it looks for the old ones. Build again from scratch,
    # keeping the resolved dependencies.
    echo "check-client: the incremental build failed; building again from scratch"
    find "$scratch" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories ! -name artifacts \
        ! -name workspace-state.json -exec rm -rf {} +
    build
fi

bin="$("$swift" build --package-path "$fixture" --scratch-path "$scratch" --show-bin-path)"
# What went into the app: the linker's list of object files names each module's
# <Module>.build directory. (The build directory itself cannot tell: SwiftPM makes a
# .build directory for every target of the graph, and keeps objects of earlier builds.)
link_list="$bin/ClientConsumer.product/Objects.LinkFileList"
if [ ! -f "$link_list" ]; then
    echo "check-client: $link_list is missing; cannot tell what was linked" >&2
    exit 1
fi
modules="$(grep -oE '/[^/]+\.build/' "$link_list" | sed -E 's|^/(.*)\.build/$|\1|' | sort -u)"
if ! grep -qx 'StoreSyncClient' <<<"$modules"; then
    echo "check-client: StoreSyncClient was not built; the check would prove nothing" >&2
    exit 1
fi

forbidden='^(_?Hummingbird.*|_?NIO.*|CNIO.*|_NIO.*|CLibPQ|PostgresLibPQ|AsyncHTTPClient|CAsyncHTTPClient|StoreSyncServer|AppStoreVerification)$'
offenders="$(grep -E "$forbidden" <<<"$modules" || true)"
if [ -n "$offenders" ]; then
    echo "check-client: an app depending on StoreSyncClient is built with server modules:" >&2
    sed 's/^/  /' <<<"$offenders" >&2
    exit 1
fi

"$bin/ClientConsumer"
echo "check-client: ok — the app is built from $(tr '\n' ' ' <<<"$modules")"
