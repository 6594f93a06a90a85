import kingdoms

from toygame import HighCard

kingdoms.register("highcard", HighCard)


import pytest


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory):
    """One fresh venv with binder/requirements.txt installed, the way repo2docker does,
    shared by tests/test_binder.py and tests/test_student_edition.py (tests/binder_env.py)."""
    from pathlib import Path

    import binder_env as be
    requirements = Path(__file__).resolve().parents[1] / "binder" / "requirements.txt"
    return be.build(tmp_path_factory.mktemp("binder"), requirements)
