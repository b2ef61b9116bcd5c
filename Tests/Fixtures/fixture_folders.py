"""What every fixture script does around its work: its output folders remade empty, and a scratch folder that is
removed afterwards, whatever happens."""
import contextlib
import os
import shutil
import tempfile


@contextlib.contextmanager
def remade(*folders):
    """Empties (or makes) `folders`, then yields a fresh scratch folder, removed on the way out."""
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    work = tempfile.mkdtemp()
    try:
        yield work
    finally:
        shutil.rmtree(work)
