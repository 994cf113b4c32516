"""Build the sandbox image, online (official Python base) or offline (a local Debian base).

The tag carries a hash of the Dockerfile and the pins, so an image built from other pins is
never mistaken for the right one. Wheels are always downloaded on the host and installed with
``--no-index`` inside, so the build itself never needs a network inside a container.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PACKAGE_DIR = Path(__file__).parent
REQUIREMENTS = PACKAGE_DIR / "sandbox_requirements.txt"
# An installed wheel carries its copy inside the package (pyproject's force-include); a checkout
# has the one at the top level. The package's own comes first: beside an installed package is
# site-packages, where any other distribution could have left a "Dockerfile".
DOCKERFILE_CANDIDATES = [PACKAGE_DIR / "Dockerfile", PACKAGE_DIR.parent / "Dockerfile"]
IMAGE_REPO = "fastapi-env-sandbox"
OFFICIAL_BASE = "python:3.11-slim"
DEBIAN_BASE = "fastapi-env-base:debian-bookworm"
DEBIAN_MIRROR = os.environ.get("FASTAPI_ENV_DEBIAN_MIRROR", "http://deb.debian.org/debian")
LABEL = "fastapi-env"


def dockerfile() -> Path:
    for path in DOCKERFILE_CANDIDATES:
        if path.exists():
            return path
    raise FileNotFoundError(
        f"Dockerfile not found in {PACKAGE_DIR} nor beside it: a broken install or checkout"
    )


def pins() -> dict[str, str]:
    """The exact package pins of the sandbox image, from the single source of them."""
    result = {}
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            result[name.strip()] = version.strip()
    return result


def image_tag() -> str:
    digest = hashlib.sha256(dockerfile().read_bytes() + REQUIREMENTS.read_bytes()).hexdigest()
    return f"{IMAGE_REPO}:{digest[:12]}"


def _say(message: str) -> None:
    print(f"[image] {message}", file=sys.stderr, flush=True)


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, check=True, **kwargs)


def _image_exists(client, name: str) -> bool:
    import docker

    try:
        client.images.get(name)
        return True
    except docker.errors.ImageNotFound:
        return False


def _choose_base(client, base: str) -> str:
    if base in ("auto", "official"):
        if _image_exists(client, OFFICIAL_BASE):
            return OFFICIAL_BASE
        _say(f"pulling {OFFICIAL_BASE} ...")
        try:
            client.images.pull(OFFICIAL_BASE)
            return OFFICIAL_BASE
        except Exception as exc:  # registry unreachable, rate limited, ...
            if base == "official":
                raise RuntimeError(f"cannot pull {OFFICIAL_BASE}: {exc}") from exc
            _say(f"no registry answers ({type(exc).__name__}); using a local Debian base instead")
    if not _image_exists(client, DEBIAN_BASE):
        build_debian_base()
    return DEBIAN_BASE


def build_debian_base() -> None:
    """debootstrap a minimal Debian bookworm with Python 3.11 and import it as an image."""
    _import_debian(DEBIAN_BASE, "python3,python3-venv,ca-certificates,procps")


# verifiers 0.4's docker/podman runtimes cut a restricted box's network with `sh`, `ip`, `awk`
# and `iptables` run in this image (verifiers/v1/runtimes/docker/__init__.py); they build it
# from an Alpine image when it is missing, which needs a registry. The same tools from Debian
# (minbase has dash and mawk) do the job.
NETWORK_IMAGE = "localhost/verifiers-network:1"


def ensure_network_image() -> str:
    """Build verifiers' network helper image locally unless the engine has it; return it."""
    import docker

    if not _image_exists(docker.from_env(), NETWORK_IMAGE):
        _import_debian(NETWORK_IMAGE, "iptables,iproute2")
    return NETWORK_IMAGE


def _import_debian(tag: str, include: str) -> None:
    """debootstrap a minimal Debian bookworm with ``include`` and import it as ``tag``."""
    if shutil.which("debootstrap") is None:
        raise RuntimeError("debootstrap is not installed (apt-get install -y debootstrap)")
    _say(f"building {tag} with debootstrap from {DEBIAN_MIRROR} (about a minute) ...")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fastapi-env-rootfs-") as root:
        _run(
            ["debootstrap", "--variant=minbase", f"--include={include}", "bookworm", root,
             DEBIAN_MIRROR],
            stdout=subprocess.DEVNULL,
        )
        tar = subprocess.Popen(["tar", "-C", root, "-c", "."], stdout=subprocess.PIPE)
        _run(["docker", "import", "-", tag], stdin=tar.stdout, stdout=subprocess.DEVNULL)
        tar.wait()
    _say(f"built {tag} in {time.monotonic() - started:.0f} s")


def download_wheels(dest: Path) -> None:
    """Fetch wheels for the pins (Linux, CPython 3.11) on the host."""
    machine = platform.machine()
    pip = [sys.executable, "-m", "pip"]
    if subprocess.run([*pip, "--version"], capture_output=True).returncode != 0:
        pip = ["uvx", "pip"]
    _run(
        [
            *pip,
            "download",
            "--quiet",
            "--dest",
            str(dest),
            "--only-binary=:all:",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "--abi",
            "cp311",
            "--platform",
            f"manylinux_2_17_{machine}",
            "--platform",
            f"manylinux2014_{machine}",
            "--platform",
            "any",
            "-r",
            str(REQUIREMENTS),
        ]
    )


def build_image(base: str = "auto", force: bool = False) -> str:
    """Build the sandbox image if its tag is missing; return the tag."""
    import docker

    client = docker.from_env()
    tag = image_tag()
    if not force and _image_exists(client, tag):
        _say(f"{tag} already exists")
        return tag
    base_image = _choose_base(client, base)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fastapi-env-build-") as context:
        ctx = Path(context)
        shutil.copy(dockerfile(), ctx / "Dockerfile")
        shutil.copy(REQUIREMENTS, ctx / "sandbox_requirements.txt")
        _say("downloading wheels for the pins ...")
        download_wheels(ctx / "wheels")
        _say(f"building {tag} on {base_image} ...")
        _run(
            [
                "docker",
                "build",
                "--quiet",
                "--network",
                "none",
                "--build-arg",
                f"BASE_IMAGE={base_image}",
                "--label",
                f"{LABEL}.base={base_image}",
                "-t",
                tag,
                str(ctx),
            ],
            stdout=subprocess.DEVNULL,
        )
    _say(f"built {tag} in {time.monotonic() - started:.0f} s")
    return tag
