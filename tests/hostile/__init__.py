"""Hostile and careless input: the validator, the API and the command never crash, never balloon,
and agree with themselves (the contract in docs/validate.md)."""
