#!/usr/bin/env bash
# The project's test command (README): lint, the comparator's proof, the task verifier, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
uv run ruff check .
uv run python test_compare.py
uv run python build_tasks.py --verify
uv run pytest -q
