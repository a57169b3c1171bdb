"""Plateau's hardware as checked code: parts and their datasheet figures, board geometry, the
circuit (SKiDL) read back as a netlist, its electrical rules, the project's footprints, and
the figures (sensor choice, latency, clock margin, power, LEDs, magnets) that the docs quote.

`python -m hardware.circuit` regenerates hardware/generated/ and hardware/plateau.pretty/;
`python -m hardware.circuit --check` is what `make test` runs (ERC, stale outputs, wiring
against sensors.json and the pin maps, the electrical rules of hardware/electrical.py)."""
