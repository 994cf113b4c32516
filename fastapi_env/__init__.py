"""fastapi-env: train and evaluate language models on FastAPI, graded by real HTTP responses.

Two verifiers entry points, each imported only when asked for:

* verifiers 0.2/0.3 (``vf-eval fastapi-env`` calls ``load_environment``): the SandboxEnv binding;
* verifiers 0.4 (``vf-eval fastapi-env`` reads ``__all__``): ``FastAPITaskset``,
  ``FastAPIHarness`` and ``FastAPIEnv`` from ``fastapi_env.envs.v1_env``, resolved lazily by the
  module ``__getattr__`` below, so importing this package never imports ``verifiers.v1``.
"""

_V1_EXPORTS = ("FastAPIEnv", "FastAPIHarness", "FastAPITaskset")

__all__ = ["load_environment", *_V1_EXPORTS]


def _verifiers_release() -> tuple[tuple[int, ...], str]:
    import verifiers

    version = verifiers.__version__
    return tuple(int(p) for p in version.split(".")[:2] if p.isdigit()), version


def load_environment(**kwargs):
    """The verifiers 0.2/0.3 entry point (``vf-eval fastapi-env``): the SandboxEnv binding."""
    release, version = _verifiers_release()
    if release >= (0, 4):
        raise ImportError(
            f"load_environment is the verifiers 0.2/0.3 binding, but verifiers {version} is "
            "installed: on 0.4 `vf-eval fastapi-env` uses FastAPITaskset / FastAPIEnv"
        )
    from fastapi_env.envs.sandbox_env import load_environment as load

    return load(**kwargs)


def __getattr__(name: str):
    if name not in _V1_EXPORTS:
        raise AttributeError(f"module 'fastapi_env' has no attribute {name!r}")
    release, version = _verifiers_release()
    if release < (0, 4):
        # AttributeError, not ImportError: `getattr(fastapi_env, name, None)` stays None here.
        raise AttributeError(
            f"fastapi_env.{name} is the verifiers 0.4 binding, but verifiers {version} is "
            "installed: use load_environment, or the 0.4 env (bash scripts/venv-v04.sh)"
        )
    from fastapi_env.envs import v1_env

    return getattr(v1_env, name)
