"""Plateau's hardware as checked code: parts, board geometry, the circuit (SKiDL), and the
figures (sensor choice, latency, power, signal integrity, magnets) that the docs quote.

`python -m hardware.circuit` regenerates everything under hardware/generated/;
`python -m hardware.circuit --check` is what `make test` runs (ERC, stale outputs, wiring
against sensors.json and the pin maps)."""
