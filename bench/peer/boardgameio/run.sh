#!/usr/bin/env bash
# usage: bash bench/peer/boardgameio/run.sh memory|flatfile TABLES THINK_SECONDS [SECONDS=20]
set -euo pipefail
cd "$(dirname "$0")"
storage=${1:?usage: run.sh memory|flatfile TABLES THINK_SECONDS [SECONDS]}
tables=${2:?tables}
think=${3:?think seconds}
seconds=${4:-20}

[ -d node_modules ] || npm ci --no-audit --no-fund
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
export NODE_ENV=production # as deployed: no per-move serializability check, no info logging

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
log=$(mktemp)
node server.js "$port" --storage "$storage" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT

# wait until the port answers (30 s at most)
for _ in $(seq 300); do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "the server exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "the server did not answer on port $port" >&2; exit 1; }

head -n 1 "$log"
node load.js "$port" "$tables" "$think" "$seconds"
# anything else the server said (boardgame.io logs rejected moves as ERROR)
if [ "$(wc -l <"$log")" -gt 1 ]; then
  echo "server log, last lines:"
  tail -n +2 "$log" | tail -n 5
fi
