"""The JSON-Schema-Test-Suite run through every artefact (README.md)."""
