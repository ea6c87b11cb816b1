#!/usr/bin/env python3
"""Checks docker-compose.yml and the Dockerfile without Docker: what `make test` can verify here.

The compose file must parse and name only what exists (build context, Dockerfile, mounted
files); every long-running service has a healthcheck and the server's is `storesync health`;
named volumes are declared; /metrics is not published; PostgreSQL's password has no default;
the server's variables are StoreSync settings. The Dockerfile must copy only what exists, copy
Package.resolved and build pinned, hide no failure, and ship every resource bundle the package
declares. Prints each finding and exits 1 if there is any.
"""
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
problems = []


# Settings the compose file does not take from .env, and why.
NOT_FROM_ENV_FILE = {
    "HTTP_HOST", "HTTP_PORT", "STORESYNC_SCHEMA_DIR",  # the image's own (Dockerfile ENV)
    "STORESYNC_DATA_DIR",  # DATABASE_URL is set: no embedded cluster
    # One PostgreSQL, reached directly: no pooler, standby or listen connection to name.
    "DATABASE_POOL_MODE", "DATABASE_READ_URL", "DATABASE_READ_MAX_LAG_MS", "DATABASE_LISTEN_URL", "DATABASE_CHANGE_POLL_MS",
    "STORESYNC_ALLOW_UNVERIFIED",  # a development switch, never for a deployment
}

# What compose must refuse to start without: never given a default in the compose file.
REQUIRED_FROM_ENV_FILE = ["POSTGRES_PASSWORD", "STORESYNC_BUNDLE_ID", "STORESYNC_ENVIRONMENT"]


def problem(text):
    problems.append(text)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def settings():
    """Environment variable names of every setting (Setting.swift)."""
    text = read("Sources/StoreSyncServer/Configuration/Setting.swift")
    return set(re.findall(r'Setting\(\s*"[^"]+",\s*"([A-Z0-9_]+)"', text))


def resource_bundles():
    """StoreSync_<Target> for every target that declares resources (Package.swift)."""
    text = read("Package.swift")
    chunks = re.split(r"\.(?:target|executableTarget|testTarget|systemLibrary)\(", text)[1:]
    bundles = set()
    for chunk in chunks:
        name = re.search(r'name:\s*"([^"]+)"', chunk)
        if name and "resources:" in chunk:
            bundles.add("StoreSync_" + name.group(1))
    return bundles


def environment(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def mounts(service):
    """(source, target, read_only) of each volume entry, short or long syntax."""
    for entry in service.get("volumes") or []:
        if isinstance(entry, str):
            parts = entry.split(":")
            yield parts[0], parts[1] if len(parts) > 1 else parts[0], len(parts) > 2 and "ro" in parts[2].split(",")
        else:
            yield entry.get("source"), entry.get("target"), bool(entry.get("read_only"))


def published_container_ports(service):
    for entry in service.get("ports") or []:
        if isinstance(entry, dict):
            yield str(entry.get("target"))
        else:
            yield str(entry).split("/")[0].rsplit(":", 1)[-1]


def is_one_shot(service):
    return str(service.get("restart", "")) == "no"


def check_compose(dockerfile_env):
    text = read("docker-compose.yml")
    compose = yaml.safe_load(text)
    services = compose.get("services") or {}
    missing = [name for name in ("postgres", "storesync", "keys") if name not in services]
    for name in missing:
        problem(f"docker-compose.yml: no service {name}")
    if missing:
        return
    declared_volumes = set((compose.get("volumes") or {}).keys())
    used_volumes = set()
    for name, service in services.items():
        build = service.get("build")
        if build is not None:
            context = build if isinstance(build, str) else build.get("context", ".")
            dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
            if not os.path.isdir(os.path.join(ROOT, context)):
                problem(f"{name}: build context {context} does not exist")
            elif not os.path.isfile(os.path.join(ROOT, context, dockerfile)):
                problem(f"{name}: {dockerfile} does not exist in {context}")
        if not is_one_shot(service):
            test = (service.get("healthcheck") or {}).get("test")
            if not test:
                problem(f"{name}: a long-running service without a healthcheck")
        for source, target, _ in mounts(service):
            if source is None or target is None:
                problem(f"{name}: a volume entry without source or target")
            elif source.startswith((".", "/")):
                if not os.path.exists(os.path.join(ROOT, source)):
                    problem(f"{name}: mounted {source} does not exist")
            else:
                used_volumes.add(source)
    for volume in sorted(used_volumes - declared_volumes):
        problem(f"named volume {volume} is used but not declared under volumes:")
    for volume in sorted(declared_volumes - used_volumes):
        problem(f"volume {volume} is declared but no service mounts it")

    # PostgreSQL's password and the server's required settings: from the environment, never
    # defaulted (an example bundle id would start a healthy server that rejects every purchase).
    for name in REQUIRED_FROM_ENV_FILE:
        references = re.findall(r"\$\{" + name + r"([^}]*)\}", text)
        if not references:
            problem(f"{name} is never read from the environment")
        for modifier in references:
            if not modifier.startswith(":?"):
                problem(f"${{{name}{modifier}}} must fail when unset (${{{name}:?…}})")

    server = services["storesync"]
    env = environment(server)
    known = settings() | {"PGPASSWORD"}
    for key in sorted(set(env) - known):
        problem(f"storesync: {key} is not a StoreSync setting")
    # Every other setting must reach the server from .env: compose passes a container only the
    # variables its file names, so one left out is silently ignored when an operator sets it.
    for key in sorted(settings() - set(env) - NOT_FROM_ENV_FILE):
        problem(f"storesync: {key} is not passed on from .env (add {key}: ${{{key}:-}})")
    if server.get("healthcheck", {}).get("test") != ["CMD", "/app/storesync", "health"]:
        problem("storesync: the healthcheck must be [CMD, /app/storesync, health] (the image has no curl or bash)")
    conditions = {dep: spec.get("condition") for dep, spec in (server.get("depends_on") or {}).items()}
    if conditions.get("postgres") != "service_healthy":
        problem("storesync: must wait for postgres to be healthy")
    if conditions.get("keys") != "service_completed_successfully":
        problem("storesync: must wait for the keys service to finish")

    # Ports: the API port is published, the metrics port never.
    http_port = env.get("HTTP_PORT", dockerfile_env.get("HTTP_PORT", "8080"))
    metrics_port = env.get("METRICS_PORT")
    if not metrics_port:
        problem("storesync: METRICS_PORT is not set, so /metrics would be public on the API port")
    published = set(published_container_ports(server))
    if metrics_port in published:
        problem(f"storesync: the metrics port {metrics_port} is published")
    if http_port not in published:
        problem(f"storesync: the API port {http_port} is not published")
    for name, service in services.items():
        if name != "storesync" and metrics_port in set(published_container_ports(service)):
            problem(f"{name}: publishes the metrics port {metrics_port}")

    # The catalog and the keys: mounted where the settings look for them.
    server_mounts = list(mounts(server))
    catalog = env.get("STORESYNC_CATALOG")
    catalog_sources = [source for source, target, _ in server_mounts if target == catalog]
    if not catalog or not catalog_sources:
        problem("storesync: STORESYNC_CATALOG does not name a mounted file")
    else:
        try:
            products = json.loads(read(catalog_sources[0]))["products"]
            if not products:
                problem(f"{catalog_sources[0]}: the catalog has no product")
        except (OSError, ValueError, KeyError) as error:
            problem(f"{catalog_sources[0]}: not a catalog: {error}")
    keys_command = services["keys"].get("command") or []
    if keys_command[:2] != ["keygen", "--into"] or len(keys_command) != 3:
        problem("keys: the command must be [keygen, --into, <directory>]")
    else:
        key_directory = keys_command[2]
        keys_volume = [source for source, target, _ in mounts(services["keys"]) if target == key_directory]
        server_volume = [source for source, target, _ in server_mounts if target == key_directory]
        if not keys_volume or keys_volume != server_volume:
            problem(f"keys and storesync must mount the same volume at {key_directory}")
        for variable, file in (("STORESYNC_SIGNING_KEY_FILE", "signing-key"), ("STORESYNC_ADMIN_API_KEY_FILE", "admin-api-key")):
            if env.get(variable) != f"{key_directory}/{file}":
                problem(f"storesync: {variable} must be {key_directory}/{file}, where keygen --into writes it")


def check_dockerfile():
    text = read("Dockerfile")
    logical = re.sub(r"\\\n", " ", text)
    instructions = [line.strip() for line in logical.splitlines() if line.strip() and not line.strip().startswith("#")]
    if "|| true" in logical:
        problem("Dockerfile: `|| true` hides a failing step")
    copied = []
    for line in instructions:
        if not line.upper().startswith("COPY "):
            continue
        words = line.split()[1:]
        if any(word.startswith("--from") for word in words):
            continue
        words = [word for word in words if not word.startswith("--")]
        for source in words[:-1]:
            copied.append(source)
            if not os.path.exists(os.path.join(ROOT, source)):
                problem(f"Dockerfile: COPY source {source} does not exist")
    for needed in ("Package.swift", "Package.resolved", "Sources", "Tests", "Schema"):
        if needed not in copied:
            problem(f"Dockerfile: {needed} is not copied")
    builds = [line for line in instructions if "swift build" in line and "--show-bin-path" not in line]
    if not builds or not all("--force-resolved-versions" in line for line in builds):
        problem("Dockerfile: swift build must use --force-resolved-versions (pinned by Package.resolved)")
    named = set(re.findall(r"\bStoreSync_[A-Za-z0-9]+\b", logical))
    declared = resource_bundles()
    for bundle in sorted(declared - named):
        problem(f"Dockerfile: the resource bundle {bundle}.resources is not copied")
    for bundle in sorted(named - declared):
        problem(f"Dockerfile: {bundle} is not a target with resources in Package.swift")
    for bundle in sorted(declared):
        built = os.path.join(ROOT, ".build", "debug", bundle + ".resources")
        if os.path.isdir(os.path.join(ROOT, ".build", "debug")) and not os.path.isdir(built):
            problem(f"{bundle}.resources is not where SwiftPM builds it ({built})")
    if 'ENTRYPOINT ["/app/storesync"]' not in instructions:
        problem('Dockerfile: ENTRYPOINT must be ["/app/storesync"] (the healthcheck runs /app/storesync health)')
    if not any(line.startswith("HEALTHCHECK") and '"/app/storesync", "health"' in line for line in instructions):
        problem("Dockerfile: HEALTHCHECK must run /app/storesync health")
    ignored = read(".dockerignore").split()
    if ".build" not in ignored:
        problem(".dockerignore: .build must be ignored (a host build must not enter the image)")
    env = {}
    for line in instructions:
        if line.startswith("ENV "):
            env.update(dict(pair.split("=", 1) for pair in line.split()[1:] if "=" in pair))
    return env


def main():
    dockerfile_env = check_dockerfile()
    check_compose(dockerfile_env)
    for text in problems:
        print(f"check-deploy: {text}")
    if problems:
        return 1
    print("check-deploy: docker-compose.yml and Dockerfile are consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
