# Build stage: the Swift toolchain plus libpq headers.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# Sources/StoreSyncServer/Resources/Schema links here: the migrations are bundled with the server.
COPY Schema ./Schema
RUN swift build -c release --product storesync \
    && mkdir -p /staging \
    && cp "$(swift build -c release --show-bin-path)/storesync" /staging/ \
    && cp -R "$(swift build -c release --show-bin-path)"/*.resources /staging/ 2>/dev/null || true

# Runtime stage: the binary, its resource bundles, the migrations and libpq5 only.
FROM swift:6.3-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /app storesync
WORKDIR /app
COPY --from=build /staging/ /app/
COPY Schema /app/Schema
USER storesync
ENV HTTP_HOST=0.0.0.0 HTTP_PORT=8080 STORESYNC_SCHEMA_DIR=/app/Schema
EXPOSE 8080
ENTRYPOINT ["/app/storesync"]
CMD ["serve"]
