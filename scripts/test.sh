#!/usr/bin/env bash
# The project's test command: set-up (scripts/setup.sh), then lint, the comparator's proof, the
# task verifier against the real image (every instance's key, traps on a sample), pytest
# (verifiers 0.3 env), the 0.4 e2e, served, escape and verifiers-runtime tests.
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
run uv run pytest -q -p no:cacheprovider
if [ "${FASTAPI_ENV_SKIP_V04:-0}" != 1 ]; then
  run .venv-v04/bin/pytest -q -p no:cacheprovider tests/test_e2e_v1.py tests/test_served_v1.py \
    tests/test_escapes_v1.py tests/test_vf_runtime.py tests/test_e2e_vf_runtime.py
fi
