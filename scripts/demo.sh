#!/usr/bin/env bash
# The offline main job on a fresh machine: set everything up, then run the real vf-eval over
# every task against the scripted reference policy (no API key, no model endpoint).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"
FASTAPI_ENV_SKIP_V04=1 bash scripts/setup.sh
uv run fastapi-env demo "$@"
