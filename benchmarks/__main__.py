"""``python -m benchmarks [--quick] [--drivers=sqlite,mongodb] [--sizes=1000,10000,100000]``."""

from benchmarks.run import main

raise SystemExit(main())
