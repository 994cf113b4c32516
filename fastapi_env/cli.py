"""The ``fastapi-env`` command: thin entry points over the package."""

from __future__ import annotations

import argparse
import asyncio
import sys

from fastapi_env.tasks import load_tasks


def select_tasks(ids: list[str] | None, per_family: int | None = None) -> list:
    """The instances named by id, family id or category (all by default), keeping at most
    ``per_family`` of each family: its original instance, then a fixed sample of the rest."""
    tasks = load_tasks({i.split("/")[0] for i in ids} if ids else None)
    if ids:
        tasks = [t for t in tasks if {t.id, t.family_id, t.category} & set(ids)]
        known = {t.id for t in tasks} | {t.family_id for t in tasks} | {t.category for t in tasks}
        unknown = set(ids) - known
        if unknown:
            raise SystemExit(f"unknown task, family or category: {', '.join(sorted(unknown))}")
    if per_family is not None:
        groups: dict[str, list] = {}
        for t in sorted(tasks, key=lambda t: (not t.original, t.id)):
            groups.setdefault(t.family_id, []).append(t)
        kept = {t.id for group in groups.values() for t in group[:per_family]}
        tasks = [t for t in tasks if t.id in kept]
    return tasks


def build_tasks_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="build_tasks.py",
        description="Rebuild the answer keys and the shipped dataset, or verify every task.",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check every task (reference, determinism, traps, controls, dataset)",
    )
    parser.add_argument(
        "--task",
        action="append",
        metavar="ID",
        help="only these instances, families or categories (repeatable)",
    )
    parser.add_argument(
        "--instances-per-family",
        type=int,
        default=None,
        metavar="N",
        help="only N instances of each family: the original, then a fixed sample",
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="run solutions on this machine, not in the sandbox image "
        "(authoring only: no isolation, and not the pinned image)",
    )
    parser.add_argument(
        "--jobs", type=int, default=None, help="parallel sandboxes (default: number of cores)"
    )
    parser.add_argument(
        "--full-per-family",
        type=int,
        default=None,
        metavar="N",
        help="with --verify: traps, controls and the determinism check on N instances of each "
        "family (the original first); every other instance has its key rebuilt and compared",
    )
    parser.add_argument(
        "--traps",
        action="store_true",
        help="with --verify: list, for each instance verified in full, the requirements each "
        "trap fails (its own, then the others it breaks too)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="grading timeout per run (s)")
    args = parser.parse_args(argv)
    if args.traps and not args.verify:
        parser.error("--traps needs --verify")

    from fastapi_env import build_cli

    tasks = select_tasks(args.task, args.instances_per_family)
    return asyncio.run(
        build_cli.run(
            tasks,
            verify=args.verify,
            local=args.local,
            jobs=args.jobs,
            timeout=args.timeout,
            full_per_family=args.full_per_family,
            list_traps=args.traps,
        )
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="fastapi-env", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    image = sub.add_parser("image", help="the sandbox image").add_subparsers(
        dest="action", required=True
    )
    build = image.add_parser("build", help="build the sandbox image (idempotent)")
    build.add_argument(
        "--base",
        choices=["auto", "official", "debian"],
        default="auto",
        help="auto: the official Python image if present or pullable, "
        "else a local Debian base built with debootstrap",
    )
    build.add_argument("--force", action="store_true", help="rebuild even if the tag exists")
    image.add_parser("tag", help="print the image tag the current pins produce")
    image.add_parser("network", help="build verifiers' network helper image "
                     "(localhost/verifiers-network:1) with debootstrap unless present")

    sub.add_parser("sweep", help="remove every fastapi-env container (all processes' ones)")
    serve = sub.add_parser(
        "serve-policy", help="serve a scripted policy (OpenAI-compatible) on loopback"
    )
    serve.add_argument("policy", help="reference, noop, syntax-error or rows-only")
    serve.add_argument("--port", type=int, default=8765)
    bench = sub.add_parser("bench", help="measure the environment's own cost (figures, no test)")
    bench.add_argument("--rollouts", type=int, default=40,
                       help="rollouts per concurrency, one per task (at most 42)")
    bench.add_argument("--concurrency", default="1,4,8,16", help="comma-separated levels")
    bench.add_argument("--task", action="append",
                       help="task ids (default: --rollouts tasks spread over the categories)")
    bench.add_argument("--warm-pool", type=int, default=2, help="warm sandboxes (0: none)")
    bench.add_argument("--repeat", type=int, default=1,
                       help="runs per configuration; throughput is their median")
    demo = sub.add_parser(
        "demo",
        help="run the real vf-eval over the tasks against a scripted policy (offline, no API key)",
    )
    demo.add_argument("--policy", default="reference")
    demo.add_argument("-n", "--num-examples", type=int, default=-1, help="tasks (-1: all)")
    demo.add_argument(
        "--per-family",
        type=int,
        default=1,
        help="instances of each family, both splits (1: each family's original instance)",
    )
    demo.add_argument("-r", "--rollouts", type=int, default=1, help="rollouts per task")
    demo.add_argument("-c", "--concurrency", type=int, default=8)
    demo.add_argument("-o", "--output-dir", default="outputs")
    sub.add_parser("smoke", help="start a sandbox, run Python with FastAPI in it, stop it")
    grade = sub.add_parser(
        "grade", help="grade a directory of files as a model's /workspace (a fresh sandbox, "
        "the task's setup files under them, the shipped key)")
    grade.add_argument("task", help="an instance id (see fastapi_env/data/tasks.jsonl)")
    grade.add_argument("directory", help="holds solution.py and any other files")
    grade.add_argument("--timeout", type=float, default=60, help="grading timeout (s)")
    tasks = sub.add_parser("tasks", help="build or verify the tasks (same as build_tasks.py)")
    tasks.add_argument("rest", nargs=argparse.REMAINDER)
    from fastapi_env import report

    report.add_arguments(
        sub.add_parser("report", help="read saved vf-eval runs: rewards, pass@k, diffs, cost")
    )

    args = parser.parse_args(argv)
    if args.command == "tasks":
        return build_tasks_main(args.rest)
    if args.command == "image":
        from fastapi_env import image as image_mod

        if args.action == "tag":
            print(image_mod.image_tag())
            return 0
        if args.action == "network":
            print(image_mod.ensure_network_image())
            return 0
        print(image_mod.build_image(base=args.base, force=args.force))
        return 0
    if args.command == "sweep":
        from fastapi_env.sandbox.docker import sweep

        removed = sweep(all_owners=True)
        print(f"removed {len(removed)} container(s)")
        return 0
    if args.command == "serve-policy":
        from fastapi_env.policy_server import PolicyServer

        server = PolicyServer(args.policy, port=args.port)
        print(f"serving policy {args.policy!r} at {server.base_url} (Ctrl-C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        return 0
    if args.command == "bench":
        from fastapi_env import bench as bench_mod

        levels = [int(c) for c in args.concurrency.split(",")]
        ids = args.task or bench_mod.default_tasks(args.rollouts)
        if args.repeat < 1:
            parser.error("--repeat must be at least 1")
        print(asyncio.run(bench_mod.run(args.rollouts, levels, ids, args.warm_pool,
                                        repeat=args.repeat)))
        return 0
    if args.command == "demo":
        from fastapi_env.evaluate import run_vf_eval, summary

        print(
            f"running vf-eval fastapi-env against the scripted {args.policy!r} policy ...",
            flush=True,
        )
        run = run_vf_eval(
            args.policy,
            num_examples=args.num_examples,
            rollouts=args.rollouts,
            concurrency=args.concurrency,
            env_args={"num_instances_per_family": args.per_family},
            output_dir=args.output_dir,
        )
        print(summary(run))
        return 0 if run.rollouts and not run.scoring_errors() else 1
    if args.command == "grade":
        from fastapi_env.grading import files

        return files.main(args.task, args.directory, args.timeout)
    if args.command == "smoke":
        return asyncio.run(_smoke())
    if args.command == "report":
        return report.main(args)
    return 2


async def _smoke() -> int:
    from fastapi_env.sandbox.docker import DockerSandbox

    async with DockerSandbox() as box:
        result = await box.exec(
            [
                "python3",
                "-c",
                "import fastapi, sys; "
                "print('python', sys.version.split()[0], 'fastapi', "
                "fastapi.__version__)",
            ]
        )
        print(result.stdout.strip() or result.stderr.strip())
        net = await box.exec(["cat", "/proc/net/dev"])
        interfaces = [ln.split(":")[0].strip() for ln in net.stdout.splitlines() if ":" in ln]
        print("network interfaces:", ", ".join(interfaces))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
