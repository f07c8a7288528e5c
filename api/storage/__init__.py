"""Where the game's state lives: a repository interface, an in-memory fake and DynamoDB."""
