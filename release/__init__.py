"""Building the packages as users receive them (`nox -s build`)."""
