#!/usr/bin/env bash
# A local cluster: Debian's nginx in front of REPLICAS API processes on one PostgreSQL (and one
# Redis), migrations run once as their own step before the processes start (MIGRATE_ON_START=false).
#
#   DATABASE_URL=postgres://... [REDIS_URL=redis://...] [PORT=8080] [REPLICAS=2] [BACKUP_DIR=...] bash deploy/local-cluster.sh up
#   bash deploy/local-cluster.sh down
#
# `up` prints `replica <pid> <port>` for each API process, then `ready http://127.0.0.1:<PORT>`.
# `down` stops what `up` started (nginx, then each API process with SIGTERM). State, logs and the
# generated nginx.conf live in CLUSTER_DIR (default deploy/.run).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
run="${CLUSTER_DIR:-$here/.run}"
nginx_bin="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"

free_port() {
  # process.stdout.write, not console.log: under FORCE_COLOR (lerna, CI) console.log colours a number.
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})'
}

wait_http() { # url seconds
  for _ in $(seq 1 $(($2 * 10))); do
    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

down() {
  if [ -f "$run/nginx.pid" ]; then
    kill -QUIT "$(cat "$run/nginx.pid")" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -f "$run/nginx.pid" ] || break; sleep 0.1; done
    rm -f "$run/nginx.pid"
  fi
  local pids=()
  for f in "$run"/replica-*.pid; do
    [ -f "$f" ] || continue
    pid="$(cat "$f")"
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    rm -f "$f"
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  echo "stopped"
}

up() {
  : "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database (several processes cannot share the embedded one)}"
  local port="${PORT:-8080}" replicas="${REPLICAS:-2}"
  [ -x "$nginx_bin" ] || { echo "nginx not found: apt-get install nginx" >&2; exit 1; }
  if ls "$run"/replica-*.pid >/dev/null 2>&1; then
    echo "a cluster is already running from $run: bash deploy/local-cluster.sh down first" >&2
    exit 1
  fi
  mkdir -p "$run"
  # Scheduled backups of the cluster (one process writes each): a folder every replica can write.
  export BACKUP_DIR="${BACKUP_DIR:-$run/backups}"
  node "$root/api/scripts/build.mjs" --if-stale
  # Migrations: once, as a step of their own, before any API process starts.
  node "$root/api/dist/cli.js" migrate >"$run/migrate.log" 2>&1 || { cat "$run/migrate.log" >&2; exit 1; }
  local upstreams=""
  for i in $(seq 1 "$replicas"); do
    local rport
    rport="$(free_port)"
    PORT="$rport" HOST=127.0.0.1 MIGRATE_ON_START=false TRUST_PROXY=1 NODE_ENV="${NODE_ENV:-production}" \
      nohup node "$root/api/dist/server.js" >"$run/replica-$i.log" 2>&1 &
    local pid=$!
    echo "$pid" >"$run/replica-$i.pid"
    # The first process also creates the first administrator: the others start once it is up.
    if ! wait_http "http://127.0.0.1:$rport/api/health" 60; then
      echo "replica $i did not start; its log:" >&2
      cat "$run/replica-$i.log" >&2
      down >/dev/null
      exit 1
    fi
    echo "replica $pid $rport"
    upstreams+="    server 127.0.0.1:$rport max_fails=1 fail_timeout=5s;"$'\n'
  done
  mkdir -p "$run"/{client_body,proxy,fastcgi,uwsgi,scgi}
  UPSTREAMS="$upstreams" RUN="$run" PORT="$port" node -e '
    const fs = require("fs");
    const text = fs.readFileSync(process.argv[1], "utf8")
      .replaceAll("@RUN@", process.env.RUN).replaceAll("@PORT@", process.env.PORT)
      .replace("@UPSTREAMS@", process.env.UPSTREAMS.replace(/\n$/, ""));
    fs.writeFileSync(process.argv[2], text);
  ' "$here/nginx.conf.template" "$run/nginx.conf"
  "$nginx_bin" -p "$run" -c "$run/nginx.conf" -e "$run/nginx-error.log"
  if ! wait_http "http://127.0.0.1:$port/api/health" 10; then
    echo "nginx did not answer on port $port; its log:" >&2
    cat "$run/nginx-error.log" >&2
    down >/dev/null
    exit 1
  fi
  echo "ready http://127.0.0.1:$port"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: bash deploy/local-cluster.sh up|down" >&2; exit 64 ;;
esac
