"""``python -m assay``: the ``assay`` command."""
from assay.cli.main import main

raise SystemExit(main())
