"""``python -m assay.cli``: the ``assay`` command."""
from assay.cli.main import main

raise SystemExit(main())
