"""What storage calls would cost on DynamoDB (benchmarks, the load test, `bench scale`)."""
