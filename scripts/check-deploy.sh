#!/usr/bin/env bash
# CI checks of the Docker deployment that need no Docker (see check-deploy.py): installs
# Python's YAML parser when missing (pip, else apt), then checks docker-compose.yml and the
# Dockerfile. `make test` runs it; the live check of `storesync health` is in the Swift suite
# (storesyncTests).
set -euo pipefail
cd "$(dirname "$0")/.."

python=""
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import yaml' 2>/dev/null; then
        python="$candidate"
        break
    fi
done

if [ -z "$python" ]; then
    echo "check-deploy: installing PyYAML"
    if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
        python3 -m pip install --quiet --user pyyaml 2>/dev/null \
            || python3 -m pip install --quiet --user --break-system-packages pyyaml 2>/dev/null || true
        python3 -c 'import yaml' 2>/dev/null && python=python3
    fi
fi
if [ -z "$python" ] && command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" != 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3 python3-yaml >/dev/null
    /usr/bin/python3 -c 'import yaml' && python=/usr/bin/python3
fi
[ -n "$python" ] || { echo "check-deploy: need python3 with PyYAML (pip install pyyaml, or apt-get install python3-yaml)" >&2; exit 1; }

exec "$python" scripts/check-deploy.py
