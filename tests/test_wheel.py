"""The package as its users get it: wheels, installed into fresh virtual envs.

* The root wheel (``uv build --wheel`` at the top) is self-contained: installed into a fresh
  venv (locked dependencies, from uv's cache), its ``image tag`` equals the checkout's, a forced
  ``image build`` from the wheel's own Dockerfile and pins reproduces the engine's image, and a
  short ``demo`` scores 1.0.
* The Hub package (``environments/fastapi_env``) builds as ``prime env push`` builds it
  (``uv build --wheel`` in that folder): the wheel holds the package, requires only registry
  distributions, and installs and imports in a fresh venv resolved from the registry alone.
"""

from __future__ import annotations

import email
import json
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from fastapi_env.image import DEBIAN_BASE, LABEL, image_tag

ROOT = Path(__file__).resolve().parents[1]
HUB = ROOT / "environments" / "fastapi_env"
RUNTIME_FILES = [  # what the package reads at run time, besides its modules
    "fastapi_env/Dockerfile",
    "fastapi_env/sandbox_requirements.txt",
    "fastapi_env/sandbox/hosts",
    "fastapi_env/sandbox/init.py",
    "fastapi_env/grading/in_container.py",
    "fastapi_env/data/tasks.jsonl",
    "fastapi_env/data/answer_keys.json",
]


def run(argv: list, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    completed = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                               **kwargs)
    assert completed.returncode == 0, f"{argv} failed:\n{completed.stdout}\n{completed.stderr}"
    return completed


def build_wheel(directory: Path, out: Path) -> Path:
    """Exactly what `prime env push` runs in the environment's folder (to our own out dir)."""
    run(["uv", "build", "--wheel", "--out-dir", out], cwd=directory)
    [wheel] = out.glob("*.whl")
    return wheel


def fresh_venv(path: Path) -> Path:
    run(["uv", "venv", path, "--python", "3.11", "--quiet"], cwd=path.parent)
    return path / "bin"


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as zf:
        [name] = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_string(zf.read(name).decode())


def module_files(directory: Path) -> set[str]:
    return {
        str(p.relative_to(directory.parent))
        for p in directory.rglob("*.py")
        if "__pycache__" not in p.parts
    }


# --------------------------------------------------------------------------- the root wheel
@pytest.fixture(scope="module")
def locked(tmp_path_factory) -> Path:
    """uv.lock's pins (verifiers 0.3.1 among them) as a constraints file."""
    constraints = tmp_path_factory.mktemp("lock") / "constraints.txt"
    run(["uv", "export", "--frozen", "--no-dev", "--no-hashes", "--no-emit-project",
         "--all-extras", "--quiet", "-o", constraints], cwd=ROOT)
    return constraints


@pytest.fixture(scope="module")
def installed(tmp_path_factory, locked) -> tuple[Path, Path]:
    """The root wheel in a fresh venv, its dependencies pinned to uv.lock's."""
    work = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(ROOT, work / "dist")
    constraints = locked
    bin_dir = fresh_venv(work / "venv")
    run(["uv", "pip", "install", "--quiet", "--python", bin_dir / "python", wheel,
         "-c", constraints], cwd=work)
    return wheel, bin_dir


def test_the_wheel_carries_everything_it_runs_on(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(RUNTIME_FILES) <= names, set(RUNTIME_FILES) - names
    assert module_files(ROOT / "fastapi_env") <= names, "modules missing from the wheel"
    with zipfile.ZipFile(wheel) as zf:  # the very bytes the checkout's tag hashes
        assert zf.read("fastapi_env/Dockerfile") == (ROOT / "Dockerfile").read_bytes()


def test_the_installed_package_is_the_one_running(installed, tmp_path):
    _, bin_dir = installed
    where = run([bin_dir / "python", "-c", "import fastapi_env; print(fastapi_env.__file__)"],
                cwd=tmp_path).stdout.strip()
    assert where.startswith(str(bin_dir.parent)), where


def test_the_installed_tag_equals_the_checkouts(installed, tmp_path):
    _, bin_dir = installed
    tag = run([bin_dir / "fastapi-env", "image", "tag"], cwd=tmp_path).stdout.strip()
    print(f"installed wheel: image tag {tag}, checkout: {image_tag()}")
    assert tag == image_tag()


def _image_id_and_base(tag: str) -> tuple[str, str]:
    found = run(["docker", "image", "inspect", tag, "--format",
                 f'{{{{.Id}}}} {{{{index .Config.Labels "{LABEL}.base"}}}}'], cwd=ROOT)
    image_id, base = found.stdout.split()
    return image_id, base


@pytest.mark.docker
def test_the_installed_package_builds_the_image(installed, tmp_path):
    """A forced build from the wheel alone (its Dockerfile, its pins, wheels downloaded on the
    host) on the engine's base reproduces the checkout's image: same tag, same image id."""
    _, bin_dir = installed
    tag = image_tag()
    before, base = _image_id_and_base(tag)  # setup.sh built it from the checkout
    built = run([bin_dir / "fastapi-env", "image", "build", "--force",
                 "--base", "debian" if base == DEBIAN_BASE else "official"], cwd=tmp_path)
    print(built.stderr.strip().splitlines()[-1])
    assert built.stdout.strip() == tag
    after, _ = _image_id_and_base(tag)
    assert after == before, "the wheel's build context differs from the checkout's"


@pytest.mark.docker
def test_the_installed_package_runs_the_demo(installed, tmp_path):
    _, bin_dir = installed
    # PATH left as it is (under `uv run` it leads to the checkout's .venv): the demo must run
    # its own venv's vf-eval, hence the installed package
    demo = run([bin_dir / "fastapi-env", "demo", "-n", "2", "-c", "2", "-o", tmp_path / "out"],
               cwd=tmp_path)
    print(demo.stdout.strip())
    assert "2 rollouts" in demo.stdout
    assert "mean reward 1.000, scoring errors 0" in demo.stdout


def test_vf_install_from_the_checkout(locked, tmp_path):
    """0.3's `vf-install fastapi-env -p ./environments` (what `prime env install fastapi-env`
    runs in a checkout): an editable install of the Hub folder, i.e. this checkout's code."""
    bin_dir = fresh_venv(tmp_path / "venv")
    run(["uv", "pip", "install", "--quiet", "--python", bin_dir / "python", "verifiers",
         "-c", locked], cwd=tmp_path)
    run([bin_dir / "vf-install", "fastapi-env", "-p", "./environments"], cwd=ROOT)
    probe = ("import fastapi_env, fastapi_env.image as i, fastapi_env.envs.sandbox_env; "
             "print(fastapi_env.__file__, i.image_tag())")
    where, tag = run([bin_dir / "python", "-c", probe], cwd=tmp_path).stdout.split()
    assert Path(where).resolve() == ROOT / "fastapi_env" / "__init__.py"
    assert tag == image_tag()


# --------------------------------------------------------------------------- the Hub package
@pytest.fixture(scope="module")
def hub_wheel(tmp_path_factory) -> Path:
    return build_wheel(HUB, tmp_path_factory.mktemp("hub") / "dist")


def test_the_hub_folder_is_the_package_not_a_copy():
    assert (HUB / "fastapi_env").is_symlink()
    assert (HUB / "fastapi_env").resolve() == ROOT / "fastapi_env"
    hub = tomllib.loads((HUB / "pyproject.toml").read_text())
    root = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for field in ("name", "version", "requires-python", "dependencies", "scripts"):
        assert hub["project"][field] == root["project"][field], field
    assert hub["tool"]["hatch"] == root["tool"]["hatch"], "the two wheels are built alike"
    assert "sources" not in hub.get("tool", {}).get("uv", {}), "no path dependencies"


def test_the_hub_folder_has_what_the_hub_reads():
    project = tomllib.loads((HUB / "pyproject.toml").read_text())
    assert project["project"]["tags"] and project["project"]["description"]
    assert {"num_examples", "rollouts_per_example"} <= project["tool"]["verifiers"]["eval"].keys()
    readme = (HUB / "README.md").read_text()
    for section in ("Overview", "Datasets", "Task", "Quickstart", "Environment Arguments",
                    "Metrics", "Changelog"):
        assert f"### {section}\n" in readme, section
    assert "`fastapi-env`" in readme and all(t in readme for t in project["project"]["tags"])


def test_the_hub_wheel_holds_the_package_and_registry_requirements(hub_wheel):
    meta = metadata(hub_wheel)
    module = meta["Name"].replace("-", "_")  # what vf-eval fastapi-env imports
    names = set(zipfile.ZipFile(hub_wheel).namelist())
    assert module == "fastapi_env"
    assert f"{module}/__init__.py" in names and set(RUNTIME_FILES) <= names
    assert module_files(ROOT / "fastapi_env") <= names
    requirements = [Requirement(r) for r in meta.get_all("Requires-Dist")]
    assert all(r.url is None for r in requirements), "a URL or path requirement"
    assert not any("file:" in str(r) for r in requirements)
    [verifiers] = [r for r in requirements if r.name == "verifiers"]
    assert verifiers.specifier.contains("0.3.1") and verifiers.specifier.contains("0.4.0")


def test_the_hub_wheel_installs_from_the_registry_and_imports(hub_wheel, tmp_path):
    """Nothing but the registry: the wheel plus whatever PyPI resolves (today verifiers 0.4)."""
    bin_dir = fresh_venv(tmp_path / "venv")
    run(["uv", "pip", "install", "--quiet", "--python", bin_dir / "python", hub_wheel],
        cwd=tmp_path)
    probe = """
import json, verifiers, fastapi_env
version = tuple(int(p) for p in verifiers.__version__.split(".")[:2])
if version >= (0, 4):
    from verifiers.v1.utils.loaders import load_taskset, resolve_env_config
    config = resolve_env_config({"taskset": {"id": "fastapi-env"}})
    tasks = list(load_taskset(config.taskset))
    binding = type(config).__name__
else:  # building the SandboxEnv would start its warm sandboxes: resolve the binding only
    from fastapi_env.dataset import select_records
    from fastapi_env.envs.sandbox_env import load_environment
    tasks, binding = select_records(None, None, None), load_environment.__module__
print(json.dumps({"verifiers": verifiers.__version__, "binding": binding, "tasks": len(tasks),
                  "file": fastapi_env.__file__}))
"""
    found = json.loads(run([bin_dir / "python", "-c", probe], cwd=tmp_path).stdout.splitlines()[-1])
    print(f"hub wheel in a fresh venv: {found}")
    records = (ROOT / "fastapi_env" / "data" / "tasks.jsonl").read_text().splitlines()
    assert found["tasks"] == len([r for r in records if r.strip()])
    assert found["file"].startswith(str(tmp_path / "venv"))
