"""Bridges from ``kingdoms`` games to other game frameworks.

``kingdoms.interop.openspiel``: every game as an OpenSpiel game (``pip install
kingdoms[openspiel]``).  Nothing here is imported by ``import kingdoms``.
"""
