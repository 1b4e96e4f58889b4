"""The `claims` command: grep, stats and lint over the claim records."""
