#!/usr/bin/env bash
# (Re)create .venv-v04: this project (editable) on verifiers 0.4.0, the `verifiers.v1` API.
#
# verifiers 0.3.x (the main .venv, locked in uv.lock) and 0.4.x pin incompatible `mcp`
# versions, so 0.4 lives in a second virtual env. pyproject.toml admits verifiers >=0.2.1,<0.5;
# uv.lock keeps 0.3.1 for the main .venv (the SandboxEnv binding), and an override file pins
# this env's verifiers. Idempotent: an existing .venv-v04 is kept and brought up to date.
#
#   bash scripts/venv-v04.sh             # then: .venv-v04/bin/vf-eval fastapi-env ...
#   VERIFIERS_V04=0.4.0 bash scripts/venv-v04.sh
set -euo pipefail
cd "$(dirname "$0")/.."

version="${VERIFIERS_V04:-0.4.0}"
command -v uv >/dev/null || { echo "uv is needed: https://docs.astral.sh/uv/" >&2; exit 1; }

overrides="$(mktemp)"
trap 'rm -f "$overrides"' EXIT
echo "verifiers==${version}" >"$overrides"

uv venv .venv-v04 --python 3.11 --allow-existing
uv pip install --python .venv-v04 --compile-bytecode -e . --override "$overrides" pytest
.venv-v04/bin/python -c "import verifiers, verifiers.v1; print('verifiers', verifiers.__version__, 'in .venv-v04')"
