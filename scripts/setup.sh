#!/usr/bin/env bash
# Everything the demo and the tests need, each step skipped when already done:
# uv, the locked dependencies, a Docker engine, the sandbox image, the verifiers 0.4 venv.
# FASTAPI_ENV_BASE=debian builds the image on a local Debian base (no registry needed);
# FASTAPI_ENV_SKIP_V04=1 skips the second venv.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.local/bin:$PATH"

stage_start=$(date +%s)
stage() {
  local now; now=$(date +%s)
  echo "::: stage '$1' took $((now - stage_start)) s"
  stage_start=$now
}

if ! command -v uv >/dev/null 2>&1; then
  python3 -m pip install --quiet uv || curl -LsSf https://astral.sh/uv/install.sh | sh
fi
# --compile-bytecode: where PYTHONDONTWRITEBYTECODE is set (it is on this machine), every
# Python process would compile verifiers, datasets and the rest from source again: about half of
# a vf-eval run's CPU (README, Development). The project's own modules are compiled below.
uv sync --frozen --all-extras --compile-bytecode
uv run python -m compileall -q fastapi_env tests build_tasks.py test_compare.py >/dev/null
stage "uv and the locked dependencies"

if [ "${FASTAPI_ENV_BASE:-auto}" = debian ] && ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
bash scripts/start-docker.sh
stage "docker engine"

uv run fastapi-env image build --base "${FASTAPI_ENV_BASE:-auto}"
stage "sandbox image"

# verifiers 0.4's docker runtime restricts a box's network with this helper image; built here
# with debootstrap, as it would otherwise pull Alpine from a registry (skipped when present).
if [ "${FASTAPI_ENV_SKIP_V04:-0}" != 1 ]; then
  command -v debootstrap >/dev/null 2>&1 \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  uv run fastapi-env image network
  stage "verifiers network helper image"
fi

if [ "${FASTAPI_ENV_SKIP_V04:-0}" != 1 ]; then
  bash scripts/venv-v04.sh
  stage "verifiers 0.4 venv"
fi
