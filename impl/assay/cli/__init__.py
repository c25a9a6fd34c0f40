"""The ``assay`` command line: :mod:`assay.cli.main` (entry point) and one module per command."""
