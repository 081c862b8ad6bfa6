"""Hostile and careless input: the validator, the API and the command never crash, never balloon,
and agree with themselves (the contract in the README's validation section)."""
