"""Release tooling on top of the generator: the schema-evolution diff and version gate
(`python -m release.evolution`, `nox -s diff`) and the packages as users receive them
(`python -m release.build`, `nox -s build`)."""
