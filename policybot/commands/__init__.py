"""CLI command groups, one module each; every module has ``register(cli)`` (see policybot.cli)."""
