"""Examples: reference clients of the ``assay conform`` protocol and third-party wrappers."""
