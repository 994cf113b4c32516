"""fastapi-env: train and evaluate language models on FastAPI, graded by real HTTP responses."""


def load_environment(**kwargs):
    """The verifiers entry point (``vf-eval fastapi-env``): the SandboxEnv binding."""
    from fastapi_env.envs.sandbox_env import load_environment as load

    return load(**kwargs)
