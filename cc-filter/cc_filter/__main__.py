"""`python -m cc_filter` = the `cc-filter` console script."""
import sys

from cc_filter.cli import main

sys.exit(main())
