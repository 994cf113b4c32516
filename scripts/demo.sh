#!/usr/bin/env bash
# The offline main job on a fresh machine: set everything up, then run the real vf-eval over
# every task against the scripted reference policy (no API key, no model endpoint).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"
command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet uv
uv sync --frozen --all-extras
bash scripts/start-docker.sh
uv run fastapi-env image build --base "${FASTAPI_ENV_BASE:-auto}"
uv run fastapi-env demo "$@"
