"""``python -m castrules`` is the same as the ``castrules`` command."""

from castrules.harness.cli import main

raise SystemExit(main())
