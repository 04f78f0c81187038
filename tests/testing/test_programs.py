"""testing.programs: a PATH without one program."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from testing.programs import path_without


def test_the_folders_holding_the_program_are_left_out_and_the_others_kept(tmp_path: Path) -> None:
    (with_it := tmp_path / "a").mkdir()
    (without := tmp_path / "b").mkdir()
    program = with_it / "dot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    (without / "python").write_text("")
    path = os.pathsep.join([str(with_it), str(without)])
    assert shutil.which("dot", path=path) == str(program)
    assert path_without("dot", path) == str(without)
    assert shutil.which("dot", path=path_without("dot", path)) is None
