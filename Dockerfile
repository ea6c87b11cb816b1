# StoreSync's server image: `docker compose up` builds it (see docker-compose.yml).
#
# Build stage: the Swift toolchain plus libpq headers. Dependencies are exactly the versions
# Package.resolved pins; any failing step fails the build.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift Package.resolved ./
# Every target the manifest declares must exist for it to load, tests included.
COPY Sources ./Sources
COPY Tests ./Tests
# Sources/StoreSyncServer/Resources/Schema links here: the migrations are bundled with the server.
COPY Schema ./Schema
RUN swift build -c release --product storesync --force-resolved-versions
# The binary and every resource bundle it reads beside it (the Apple root certificate, the
# OpenAPI document); a missing bundle fails the build here, not the server at run time.
RUN set -eu; \
    bin="$(swift build -c release --show-bin-path)"; \
    mkdir -p /staging; \
    cp "$bin/storesync" /staging/; \
    for bundle in StoreSync_AppStoreVerification StoreSync_StoreSyncServer; do \
        test -d "$bin/$bundle.resources"; \
        cp -R "$bin/$bundle.resources" /staging/; \
    done

# Runtime stage: the binary, its resource bundles, the migrations and libpq5 only.
FROM swift:6.3-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /app storesync \
    && mkdir -p /var/lib/storesync && chown storesync /var/lib/storesync
WORKDIR /app
COPY --from=build /staging/ /app/
COPY Schema /app/Schema
USER storesync
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=8080 STORESYNC_SCHEMA_DIR=/app/Schema
EXPOSE 8080
# The image has no curl and no bash: the binary asks GET /health/ready itself.
HEALTHCHECK --interval=5s --timeout=5s --start-period=30s --retries=12 CMD ["/app/storesync", "health"]
ENTRYPOINT ["/app/storesync"]
CMD ["serve"]
