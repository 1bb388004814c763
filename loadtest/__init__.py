"""Load, soak, fault and fuzz runs against real daphne processes (see loadtest/README.md)."""
