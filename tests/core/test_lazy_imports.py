import subprocess
import sys


def test_import_kingdoms_loads_no_heavy_library():
    code = ("import sys, kingdoms; kingdoms.games(); "
            "heavy = [m for m in ('matplotlib', 'sympy', 'ipywidgets', 'networkx', 'pandas', "
            "'babel') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
