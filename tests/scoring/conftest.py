"""The scoring tests are pure Python: no database, no Django settings, no fixtures from club/.

The repository root goes on sys.path so that `import scoring` works however pytest is started
(`pytest`, `python -m pytest`, with or without pytest-django, from any directory).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
