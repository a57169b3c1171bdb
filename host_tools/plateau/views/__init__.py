"""One host module per game, found by plateau.registry: what only the host tools have for a
game (its generator, its plays, its replay checker, its part of the live view...). Every name
is optional; plateau/registry.py's PLAIN lists them with what a game without one gets."""
