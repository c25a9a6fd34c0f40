"""``python -m assay.cli.main``: the ``assay`` command."""
from assay.cli.main import main

raise SystemExit(main())
