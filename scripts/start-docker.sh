#!/usr/bin/env bash
# Start a Docker engine when none answers (CI, and contributors on machines like ours).
# A user whose engine already runs never needs this. Needs root on Debian/Ubuntu.
# The engine's PID is written to /tmp/fastapi-env-dockerd.pid: stop it with
#   kill "$(cat /tmp/fastapi-env-dockerd.pid)"
set -euo pipefail

if docker info >/dev/null 2>&1; then
  echo "docker engine already answers"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "no Docker engine answers and this is not root: start one yourself" >&2
  exit 1
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "installing docker.io from Debian's packages ..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
nohup dockerd >/tmp/fastapi-env-dockerd.log 2>&1 &
echo $! >/tmp/fastapi-env-dockerd.pid
for _ in $(seq 60); do
  if docker info >/dev/null 2>&1; then
    echo "docker engine started (pid $(cat /tmp/fastapi-env-dockerd.pid))"
    exit 0
  fi
  sleep 1
done
echo "dockerd did not answer within 60 s; see /tmp/fastapi-env-dockerd.log" >&2
exit 1
