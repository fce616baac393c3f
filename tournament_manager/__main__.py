"""`python -m tournament_manager`: the same as the console command `tournament-manager`."""

import sys

from tournament_manager.cli import main

sys.exit(main())
