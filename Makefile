# StoreSync — the commands a newcomer runs. Each installs what is missing first.
#   make run    build and serve on an embedded PostgreSQL (.storesync/), with keys kept in .storesync/keys
#   make test   the whole test suite against a real PostgreSQL the tests start themselves,
#               then make check-client and the Docker deployment's checks (scripts/check-deploy.sh)
#   make check-client   an app depending on StoreSyncClient alone builds none of the server's
#               dependencies (Hummingbird, NIO, libpq, AsyncHTTPClient)

SWIFT ?= swift
BIN = .build/debug

# Development defaults for `make run`; any of them can be overridden from the environment.
export STORESYNC_BUNDLE_ID ?= com.example.storesync
export STORESYNC_ENVIRONMENT ?= Sandbox
export STORESYNC_CATALOG ?= examples/catalog.json
export HTTP_PORT ?= 8080

.PHONY: deps build run migrate keygen test check-client scenarios demo bench fuzz docs clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# The snapshot signing key and the admin key are made once into .storesync/keys and kept, so
# a client that pinned the public key keeps trusting snapshots across restarts.
run: deps
	$(SWIFT) build --product storesync
	$(BIN)/storesync keygen --into .storesync/keys
	STORESYNC_SIGNING_KEY_FILE=.storesync/keys/signing-key STORESYNC_ADMIN_API_KEY_FILE=.storesync/keys/admin-api-key \
		$(BIN)/storesync serve

migrate: deps
	$(SWIFT) build --product storesync
	$(BIN)/storesync migrate

keygen: deps
	$(SWIFT) build --product storesync
	$(BIN)/storesync keygen

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) check-client
	scripts/check-deploy.sh

check-client:
	SWIFT=$(SWIFT) scripts/check-client-consumer.sh

scenarios: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter ScenarioTests

demo: deps
	$(SWIFT) build --product storesync
	$(SWIFT) build --product storesync-demo
	$(BIN)/storesync-demo --server $(BIN)/storesync

bench:
	@scripts/install-deps.sh --bench
	scripts/bench.sh

fuzz: deps
	scripts/fuzz.sh

docs:
	mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		--target StoreSyncClient --output-path .build/docs/StoreSyncClient

clean:
	rm -rf .build Benchmarks/.build
