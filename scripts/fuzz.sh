#!/usr/bin/env bash
# `make fuzz`: schemathesis (from PyPI, in .build/fuzz-venv) against the OpenAPI document of a
# live `storesync serve` on a throwaway embedded PostgreSQL. Exits non-zero on any server error.
#
# Several passes, because one bearer header cannot serve every route: device routes with a device
# token (sign-out left out, or it would revoke the token for the rest of the run), admin routes
# with the admin key (the App Store Server API ones apart, see below), and sign-out last with a
# token of its own.
#
# Settings: FUZZ_MAX_EXAMPLES (default 50 per operation), FUZZ_SEED, FUZZ_CHECKS
# (default not_a_server_error,response_schema_conformance), FUZZ_PORT (default: a free one).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
venv="$root/.build/fuzz-venv"
max_examples="${FUZZ_MAX_EXAMPLES:-50}"
default_checks="${FUZZ_CHECKS:-not_a_server_error,response_schema_conformance}"
seed_option=()
[ -n "${FUZZ_SEED:-}" ] && seed_option=(--seed "$FUZZ_SEED")

if [ ! -x "$venv/bin/schemathesis" ]; then
    echo "fuzz: installing schemathesis into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet schemathesis
fi

swift build --product storesync
storesync="$root/.build/debug/storesync"

work=$(mktemp -d "${TMPDIR:-/tmp}/storesync-fuzz.XXXXXX")
# PostgreSQL runs as an unprivileged account when we are root: it must be able to enter the directory.
chmod 755 "$work"
server_pid=""
receipt_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ -n "$receipt_pid" ]; then kill "$receipt_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap stop_server EXIT
touch "$work/empty.toml"
trap 'exit 130' INT TERM

port="${FUZZ_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
base="http://127.0.0.1:$port"
admin_key="fuzz-admin-$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
signing_key=$("$storesync" keygen | sed -n 's/^STORESYNC_SIGNING_KEY=//p')

# Apple's verifyReceipt is out of reach of a test machine, and a receipt it never answers is a
# 503 after the verifier's whole timeout: a stand-in answers every receipt as Apple answers one
# that is not a receipt (status 21002), so fuzzed receipts reach the server's handling of a refusal.
receipt_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$receipt_port" > "$work/verify-receipt.log" 2>&1 <<'PY' &
import http.server, sys

class VerifyReceipt(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b'{"status": 21002}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), VerifyReceipt).serve_forever()
PY
receipt_pid=$!
receipt_url="http://127.0.0.1:$receipt_port/verifyReceipt"

echo "fuzz: starting storesync on $base (data in $work)"
env STORESYNC_VERIFY_RECEIPT_URL="$receipt_url" STORESYNC_VERIFY_RECEIPT_SANDBOX_URL="$receipt_url" STORESYNC_DATA_DIR="$work/data" STORESYNC_SCHEMA_DIR="$root/Schema" STORESYNC_CATALOG="$root/examples/catalog.json" \
    STORESYNC_BUNDLE_ID=com.example.storesync STORESYNC_ENVIRONMENT=Sandbox \
    STORESYNC_ADMIN_API_KEY="$admin_key" STORESYNC_SIGNING_KEY="$signing_key" STORESYNC_BCRYPT_COST=4 \
    HTTP_HOST=127.0.0.1 HTTP_PORT="$port" LOG_LEVEL="${FUZZ_LOG_LEVEL:-warning}" \
    "$storesync" serve > "$work/server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 240); do
    curl -fsS "$base/health/ready" > /dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; echo "fuzz: the server exited" >&2; exit 1; }
    sleep 0.5
done
curl -fsS "$base/health/ready" > /dev/null || { cat "$work/server.log"; echo "fuzz: the server never became ready" >&2; exit 1; }

# Prints one field of a new account's session: token, accountId or appAccountToken.
sign_up() {
    curl -fsS -X POST "$base/v1/accounts" -H 'Content-Type: application/json' \
        -d "{\"email\": \"fuzz-$1-$RANDOM@example.com\", \"password\": \"correct horse battery staple\"}" > "$work/$1.json"
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/$1.json" "${2:-token}"
}

failed=0
run_pass() {
    local name=$1 token=$2 checks=${checks:-$default_checks}
    shift 2
    echo "fuzz: pass '$name'"
    # From the scratch directory: schemathesis leaves a .schemathesis/ folder where it runs.
    (cd "$work" && "$venv/bin/schemathesis" --no-color --config-file "${config_file:-$work/empty.toml}" run "$base/openapi.yaml" --url "$base" \
        -H "Authorization: Bearer $token" --checks "$checks" --max-examples "$max_examples" \
        --request-timeout 30 --suppress-health-check all --generation-database :memory: "${seed_option[@]}" "$@") || failed=1
}

# The App Store Server API routes answer 503 (documented) on a server without the API's settings:
# they get a pass of their own where that answer must conform to the document instead of failing.
appstore_operations=(adminRefreshPurchase adminRecoverNotifications adminLookUpOrder adminTestNotification)
exclude_appstore=()
include_appstore=()
for operation in "${appstore_operations[@]}"; do
    exclude_appstore+=(--exclude-operation-id "$operation")
    include_appstore+=(--include-operation-id "$operation")
done

run_pass device "$(sign_up device)" --exclude-tag admin --exclude-operation-id signOut
run_pass admin "$admin_key" --include-tag admin "${exclude_appstore[@]}"
checks=response_schema_conformance,status_code_conformance,content_type_conformance \
    run_pass appstore-api-unconfigured "$admin_key" "${include_appstore[@]}"
# Fuzzed ids mostly find nothing (404): once more with a real account's ids, to reach the lookups.
cat > "$work/known-account.toml" <<TOML
[parameters]
"path.accountId" = "$(sign_up known accountId)"
"query.appAccountToken" = "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["appAccountToken"])' "$work/known.json")"
TOML
config_file="$work/known-account.toml" run_pass admin-known-account "$admin_key" --include-tag admin "${exclude_appstore[@]}"
run_pass sign-out "$(sign_up sign-out)" --include-operation-id signOut

if grep -q '"unexpected error"\|level=error\|error:' "$work/server.log" 2>/dev/null; then
    echo "fuzz: the server logged errors:" >&2
    grep '"unexpected error"\|level=error\|error:' "$work/server.log" | head -20 >&2
fi
if [ $failed -ne 0 ]; then
    echo "fuzz: FAILED (see the schemathesis output above)" >&2
    exit 1
fi
echo "fuzz: no server errors"
