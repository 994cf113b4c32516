# The sandbox image: Python 3.11 with the exact pins the answer keys were built with.
# Build it with `fastapi-env image build` (it supplies the wheels and, offline, a local base).
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

COPY sandbox_requirements.txt /opt/fastapi-env/sandbox_requirements.txt
COPY wheels /tmp/wheels
RUN python3 -m venv /opt/venv \
 && /opt/venv/bin/pip install --no-cache-dir --no-index --find-links /tmp/wheels \
        -r /opt/fastapi-env/sandbox_requirements.txt \
 && /opt/venv/bin/pip freeze > /opt/fastapi-env/installed.txt \
 && rm -rf /tmp/wheels /root/.cache \
 && mkdir -p /workspace && chmod 700 /workspace
# Starlette's test client warns on every import that `httpx2` should be installed: the box has
# no network, so a model that believes it loses its turns. Silence that one message for the
# model's python3 and the grader's alike: a .pth line runs at every start, even `python3 -I`
# (a sitecustomize.py would lose to Debian's own).
RUN echo 'import warnings; warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated", category=UserWarning)' \
      > /opt/venv/lib/python3.11/site-packages/fastapi-env-quiet.pth

# Each box runs its model as a uid of its own (fastapi_env/sandbox/base.py, MODEL_UID_RANGE),
# known only when the box starts: /etc/passwd and /etc/group point into /etc/fastapi-env, where
# the box's root writes the image's entries plus the model's (`model`, home /workspace) before
# the first command. The image's own entries stay in *.image.
RUN mkdir -p /etc/fastapi-env \
 && mv /etc/passwd /etc/passwd.image && mv /etc/group /etc/group.image \
 && ln -s fastapi-env/passwd /etc/passwd && ln -s fastapi-env/group /etc/group

ENV PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/workspace
LABEL fastapi-env.pins-file=/opt/fastapi-env/sandbox_requirements.txt
WORKDIR /workspace
CMD ["sleep", "infinity"]
