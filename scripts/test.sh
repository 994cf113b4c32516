#!/usr/bin/env bash
# The project's test command: set-up (scripts/setup.sh), then lint, the comparator's proof, the
# task verifier against the real image, pytest (verifiers 0.3 env), the 0.4 e2e and escape tests.
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
run uv run python build_tasks.py --verify
run uv run pytest -q -p no:cacheprovider
if [ "${FASTAPI_ENV_SKIP_V04:-0}" != 1 ]; then
  run .venv-v04/bin/pytest -q -p no:cacheprovider tests/test_e2e_v1.py tests/test_escapes_v1.py
fi
