"""The REST API: thin Flask handlers over the service layer."""
