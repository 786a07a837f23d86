"""``python -m harness`` is the same as the ``castrules`` command."""

from harness.cli import main

raise SystemExit(main())
