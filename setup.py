"""Build Pyrope's Cython core. Portable by default; PYROPE_NATIVE=1 tunes for this CPU."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

flags = ["-O3"]
if os.environ.get("PYROPE_NATIVE") == "1":
    flags.append("-march=native")

extensions = [
    Extension(
        "pyrope._core",
        ["ext/_core.pyx"],
        include_dirs=["ext"],
        extra_compile_args=flags,
    ),
    Extension("pyrope._mill", ["ext/_mill.pyx"], extra_compile_args=flags),
    # Kriegspiel includes the chess core's .pxi files (position, move generation) from ext/.
    Extension(
        "pyrope._kriegspiel",
        ["ext/_kriegspiel.pyx"],
        include_dirs=["ext"],
        extra_compile_args=flags,
    ),
]

setup(
    ext_modules=cythonize(extensions, compiler_directives={"language_level": 3}),
)
