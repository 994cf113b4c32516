"""fastapi-env: train and evaluate language models on FastAPI, graded by real HTTP responses."""
