"""Bindings to verifiers: ``sandbox_env`` (SandboxEnv API, verifiers 0.2/0.3)."""
