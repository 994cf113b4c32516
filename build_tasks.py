"""Build the shipped dataset and answer keys from the tasks, or verify every task.

    python build_tasks.py                  # rebuild keys in the sandbox image, write the dataset
    python build_tasks.py --verify         # check every task; exit 1 with a report on failure
    python build_tasks.py --verify --local --task routing/path_order   # authoring, no Docker

See fastapi_env/cli.py (``fastapi-env tasks ...``) for the same commands.
"""

import sys

from fastapi_env.cli import build_tasks_main

if __name__ == "__main__":
    sys.exit(build_tasks_main(sys.argv[1:]))
