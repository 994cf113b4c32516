#!/usr/bin/env bash
# The project's test command: set-up (scripts/setup.sh), then lint, the comparator's proof, the
# task verifier against the real image (every instance's key, traps on a sample), pytest
# (verifiers 0.3 env) beside the 0.4 e2e, served, escape and verifiers-runtime tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"
bash scripts/setup.sh

run() {
  local started; started=$(date +%s)
  echo "::: $*"
  "$@"
  echo "::: '$*' took $(( $(date +%s) - started )) s"
}
run uv run ruff check .
run uv run python test_compare.py
# Every instance's key is rebuilt and compared; traps, controls and determinism run on each
# family's original instance (the full run, every instance, is README's separate command).
run uv run python build_tasks.py --verify --full-per-family 1
# The two pytest suites wait on containers and subprocesses more than they use the CPU, so they
# run side by side (README, Development, has the figures). Each one's output is printed whole
# when it ends. The engine-restart test would break
# the other suite's boxes: it runs alone afterwards.
RESTART_TEST=tests/test_faults.py::test_engine_restarted_mid_evaluation
logs=$(mktemp -d)
suite() {
  local name=$1; shift
  local started; started=$(date +%s)
  local rc=0
  "$@" >"$logs/$name" 2>&1 || rc=$?
  { cat "$logs/$name"
    echo "::: suite '$name' ($*) took $(( $(date +%s) - started )) s, exit $rc"; } >"$logs/$name.done"
  return $rc
}
echo "::: pytest suites side by side: main (verifiers 0.3 env) and 0.4"
suite main uv run pytest -q -p no:cacheprovider --deselect "$RESTART_TEST" &
main_pid=$!
v04_pid=
if [ "${FASTAPI_ENV_SKIP_V04:-0}" != 1 ]; then
  suite v04 .venv-v04/bin/pytest -q -p no:cacheprovider tests/test_e2e_v1.py \
    tests/test_served_v1.py tests/test_escapes_v1.py tests/test_vf_runtime.py \
    tests/test_e2e_vf_runtime.py &
  v04_pid=$!
fi
failed=0
wait "$main_pid" || failed=1
cat "$logs/main.done"
if [ -n "$v04_pid" ]; then
  wait "$v04_pid" || failed=1
  cat "$logs/v04.done"
fi
rm -rf "$logs"
[ "$failed" = 0 ] || { echo "::: a pytest suite failed (above)"; exit 1; }
if [ -n "${FASTAPI_ENV_RESTARTABLE_ENGINE_PID_FILE:-}" ]; then
  run uv run pytest -q -p no:cacheprovider "$RESTART_TEST"
fi
