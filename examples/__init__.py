"""Examples of foogo's extension points (importable as `examples.<name>` from a clone's root)."""
