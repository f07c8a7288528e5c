"""Where the game's state lives, in four parts beside the interface they share:

- the repository interface (repository.py: one Protocol per concern, and `Repository`, all of
  them), the stored records (records.py), every key of the table (keys.py) and the deployment's
  shard counts (layout.py);
- memory/: the in-memory fake, with DynamoDB's semantics (tests, `bench scale`);
- dynamodb/: the DynamoDB adapter, through PynamoDB (production, `make run`, the engine tests);
- metering/: what each call would cost on DynamoDB, an observer of either store that only the
  benchmarks, the load test and `bench scale` attach.

The engines that run locally (DynamoDB Local, moto) are beside `make run`, in api/local/.
"""
