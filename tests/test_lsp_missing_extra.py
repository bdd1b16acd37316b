"""Without the extra [lsp], `memlint server` says what to install and exits 2."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.lsp_client import SRC


def test_missing_extra_is_a_clear_error(tmp_path):
    hide = "import sys; sys.modules['pygls'] = None; from memlint.cli import main; "
    done = subprocess.run(
        [sys.executable, "-c", hide + "sys.exit(main(['server']))"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=SRC),
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("memlint: error: `memlint server` needs the optional extra")
    assert "Traceback" not in done.stderr
