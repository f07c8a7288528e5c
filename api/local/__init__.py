"""The local stack: `make run` (api/local/run.py) and the stores it can run on."""
