"""Sandboxes: one small interface (``base.Sandbox``) and the backends behind it."""

from fastapi_env.sandbox.base import ExecResult, Limits, Sandbox, SandboxError

__all__ = ["ExecResult", "Limits", "Sandbox", "SandboxError"]
