"""The repository on one DynamoDB table, through PynamoDB (the production store)."""
