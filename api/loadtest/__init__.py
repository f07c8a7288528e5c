"""The load test: many concurrent tournaments of bot clients, measured."""
