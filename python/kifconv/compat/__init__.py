"""Readers shaped as other shogi libraries' readers, over kifconv's.

A script written for one of them switches by changing one import:

* :mod:`kifconv.compat.cshogi`: ``CSA.Parser``, ``KIF.Parser`` and
  ``KI2.Parser`` as cshogi has them (``parse_file``, ``parse_str``), giving
  objects with cshogi's attributes, ``moves`` as cshogi's 32-bit integers;
* :mod:`kifconv.compat.python_shogi`: ``CSA.Parser`` and ``KIF.Parser``
  as python-shogi has them, giving its dicts (``names``, ``sfen``,
  ``moves`` in USI, ``win``).

The records are read by kifconv (any encoding, every format it reads);
where that reading differs from the other library's, the module's
documentation lists it.
"""

from . import cshogi, python_shogi

__all__ = ["cshogi", "python_shogi"]
